/**
 * The journey's evidence and its validity windows (client/evidenceValidity.ts): each completed
 * step that gives an evidence kind gets an item, measured from the provider's date where its data
 * carries one (`evidenceDate` in the attempt's result), else from when the attempt completed.
 *
 * Before the journey completes, the items past their window are renewed: each such step runs a new
 * attempt that buys anew (a new need), and its renewal is announced once that attempt completed.
 * An item is renewed at most once in a run of the journey (carried across continue-as-new), so a
 * window shorter than a renewal takes, or a provider date a renewal cannot move (the same last
 * transaction), never loops: such an item is flagged stale and the journey completes. With
 * `refreshStale: false` nothing is renewed and every stale item is flagged.
 */
import type { Duration } from '@temporalio/common';
import {
  freshnessWith,
  isStale,
  staleReason,
  validityOf,
  type EvidenceValidity,
  type Freshness,
} from '../client/evidenceValidity';
import type { JourneyStatus, JourneyStep } from '../client/journeyMessages';
import type { StepStatus } from '../client/stepMessages';

/** What the journey hands a continued run about its renewals. */
export interface EvidenceRenewals {
  /** Steps renewed in this run: none is renewed again. */
  renewed: string[];
  /** Renewals whose new attempt has not completed yet, by step key: the reason each was renewed for. */
  renewing: Record<string, string>;
}

/** A renewal whose new attempt completed: what `case.evidence_refreshed` says. */
export interface CompletedRenewal {
  step: string;
  attempt: number;
  item: EvidenceValidity;
  reason: string;
}

export class JourneyEvidence {
  private readonly freshness: Freshness;
  private readonly renewed: Set<string>;
  private readonly renewing: Map<string, string>;

  constructor(
    freshness: Partial<Record<string, Duration>> | undefined,
    readonly refreshStale: boolean,
    continued?: EvidenceRenewals,
  ) {
    this.freshness = freshnessWith(freshness as Partial<Freshness> | undefined);
    this.renewed = new Set(continued?.renewed ?? []);
    this.renewing = new Map(Object.entries(continued?.renewing ?? {}));
  }

  renewals(): EvidenceRenewals {
    return { renewed: [...this.renewed], renewing: Object.fromEntries(this.renewing) };
  }

  /** A carried-over step's item, measured against this run's windows from its own date. */
  carried(key: string, item: EvidenceValidity | undefined): EvidenceValidity | undefined {
    if (!item) return undefined;
    return validityOf(
      key,
      item.dateFrom === 'provider' ? item.measuredFrom : null,
      item.measuredFrom,
      this.freshness,
      item,
    );
  }

  /**
   * The step's attempt completed with `result`: its item, measured anew. A renewal it completed
   * is answered, to be announced.
   */
  completed(key: string, step: JourneyStep, result: Partial<StepStatus>, now: number): CompletedRenewal | undefined {
    const item = validityOf(key, result.evidenceDate, new Date(now).toISOString(), this.freshness, step.evidence);
    if (!item) return undefined;
    step.evidence = item;
    const reason = this.renewing.get(key);
    if (reason === undefined) return undefined;
    this.renewing.delete(key);
    return { step: key, attempt: step.attempt, item, reason };
  }

  /** Steps whose item has gone stale at `now` and may still be renewed in this run. */
  renewable(status: JourneyStatus, now: number): [string, EvidenceValidity][] {
    if (!this.refreshStale) return [];
    return this.staleItems(status, now).filter(([key]) => !this.renewed.has(key));
  }

  wasRenewed(key: string): boolean {
    return this.renewed.has(key);
  }

  /** Marks a renewal of `key` for `reason`; the item counts it. */
  renew(key: string, item: EvidenceValidity, reason: string): void {
    this.renewed.add(key);
    this.renewing.set(key, reason);
    item.refreshes += 1;
    item.lastRefreshReason = reason;
  }

  /** Flags every item stale at `now`; answers the reason line naming them, if any. */
  flagStale(status: JourneyStatus, now: number): string | undefined {
    const stale = this.staleItems(status, now);
    for (const [, item] of stale) item.stale = true;
    if (stale.length === 0) return undefined;
    return `completed with stale evidence: ${stale.map(([key, item]) => `${key} (${staleReason(item)})`).join(', ')}`;
  }

  private staleItems(status: JourneyStatus, now: number): [string, EvidenceValidity][] {
    return Object.entries(status.steps)
      .filter(([, step]) => step.state === 'completed' && step.evidence !== undefined)
      .map(([key, step]) => [key, step.evidence as EvidenceValidity] as [string, EvidenceValidity])
      .filter(([, item]) => isStale(item, now));
  }
}
