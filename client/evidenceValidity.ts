/**
 * How long each kind of evidence a journey gathers stays valid for a lending decision, and the
 * shape in which a journey reports it. A window is measured from the provider's own date where the
 * data carries one (an IDV's `date_completed`, the last bank transaction's date, an insight's
 * `datetime_completed`), otherwise from when the journey read it. Workflow code imports this file,
 * so it holds no zod and no I/O (the schema of a case's `freshness` is in journeyInput.ts).
 */
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';

/** The kinds of evidence that age, and the step each comes from. */
export const evidenceKinds = {
  creditReport: { step: 'credit-report' },
  identityVerification: { step: 'identity-verification' },
  bankTransactions: { step: 'banking' },
  affordability: { step: 'affordability' },
  incomeEmployer: { step: 'income-employer' },
} as const;

export type EvidenceKind = keyof typeof evidenceKinds;

export const evidenceKindNames = Object.keys(evidenceKinds) as EvidenceKind[];

/** The default validity windows; a case overrides each in its input's `freshness`. */
export const defaultFreshness = {
  creditReport: '30 days',
  identityVerification: '90 days',
  bankTransactions: '14 days',
  affordability: '30 days',
  incomeEmployer: '30 days',
} as const satisfies Record<EvidenceKind, Duration>;

export type Freshness = { -readonly [K in EvidenceKind]: Duration };

export function freshnessWith(overrides: Partial<Freshness> = {}): Freshness {
  return { ...defaultFreshness, ...overrides };
}

/** The evidence kind a step key gives (`identity-verification/<personId>` gives identityVerification). */
export function evidenceKindOfStep(stepKey: string): EvidenceKind | undefined {
  const base = stepKey.split('/')[0];
  return evidenceKindNames.find((kind) => evidenceKinds[kind].step === base);
}

/** One step's evidence as the journey reports it in its status, keyed there by step key. */
export interface EvidenceValidity {
  kind: EvidenceKind;
  /** The date the window is measured from (ISO 8601). */
  measuredFrom: string;
  /** Whose date that is: the provider's own, or when the journey read the data. */
  dateFrom: 'provider' | 'read';
  /** When the evidence goes stale (ISO 8601). */
  validUntil: string;
  /** True when the journey completed with it past its window (`refreshStale: false`). */
  stale: boolean;
  /** How many times the journey renewed it because it went stale, or on request. */
  refreshes: number;
  /** Why it was last renewed. */
  lastRefreshReason?: string;
}

/**
 * The validity of what a step's completed attempt read: measured from the provider's date when it
 * gave a readable one, else from `readAt`; the refresh count and reason carry over from `previous`.
 * Undefined for a step that gives no evidence kind.
 */
export function validityOf(
  stepKey: string,
  evidenceDate: string | null | undefined,
  readAt: string,
  freshness: Freshness,
  previous?: EvidenceValidity,
): EvidenceValidity | undefined {
  const kind = evidenceKindOfStep(stepKey);
  if (!kind) return undefined;
  const providerTime = evidenceDate ? Date.parse(evidenceDate) : Number.NaN;
  const fromProvider = !Number.isNaN(providerTime);
  const measuredFrom = fromProvider ? new Date(providerTime).toISOString() : readAt;
  return {
    kind,
    measuredFrom,
    dateFrom: fromProvider ? 'provider' : 'read',
    validUntil: new Date(Date.parse(measuredFrom) + msToNumber(freshness[kind])).toISOString(),
    stale: false,
    refreshes: previous?.refreshes ?? 0,
    lastRefreshReason: previous?.lastRefreshReason,
  };
}

/** Whether an item has gone stale at `now` (ms): its validUntil is not after it. */
export function isStale(item: EvidenceValidity, now: number): boolean {
  return Date.parse(item.validUntil) <= now;
}

/** The reason recorded when a stale item is renewed. */
export function staleReason(item: EvidenceValidity): string {
  return `evidence stale: ${item.kind} valid until ${item.validUntil}`;
}

/** Every step's evidence, by step key, from the steps that carry one (the read model keeps it on each step). */
export function evidenceOfSteps(
  steps: Record<string, { evidence?: EvidenceValidity }>,
): Record<string, EvidenceValidity> {
  const items: Record<string, EvidenceValidity> = {};
  for (const [key, step] of Object.entries(steps)) if (step.evidence) items[key] = step.evidence;
  return items;
}
