/**
 * Whether Temporal as a whole answers the bridge, as far as it knows: set by Temporal's answers to
 * signals and by a cheap probe (startBridge: `getSystemInfo` under a short deadline). A signal that
 * timed out or was cancelled says nothing of Temporal (one workflow can be slow), so the probe
 * decides before the bridge treats Temporal as down. `/readyz` and the metrics read the state
 * without waiting: a stale one is refreshed in the background.
 */
import type { Refusal } from './temporalRefusal';

export type TemporalState = 'reachable' | 'unreachable' | 'unknown';
/** What a refusal means for the delivery: dead-letter it, wait for Temporal, or wait for its resources. */
export type Verdict = 'permanent' | 'unavailable' | 'resource';

export interface TemporalHealthOptions {
  /** Resolves when Temporal answers, rejects when it does not. Without one, only a signal can tell. */
  probe?: () => Promise<void>;
  /** How long a known state stands before a read refreshes it (ms). */
  freshMs?: number;
}

export class TemporalHealth {
  private value: TemporalState = 'unknown';
  private knownAt = 0;
  private probing?: Promise<boolean>;
  private readonly listeners: ((state: TemporalState) => void)[] = [];

  constructor(private readonly options: TemporalHealthOptions = {}) {}

  get state(): TemporalState {
    return this.value;
  }

  get down(): boolean {
    return this.value === 'unreachable';
  }

  /** Called on every change of state. */
  subscribe(listener: (state: TemporalState) => void): void {
    this.listeners.push(listener);
  }

  /** Temporal answered: it took a signal, or refused one for a reason of the delivery's own. */
  answered(): void {
    this.set('reachable');
  }

  /** Temporal said it takes nothing (UNAVAILABLE, namespace not found, credentials refused). */
  unreachable(): void {
    this.set('unreachable');
  }

  /** The last known state, at once; a stale one is probed again in the background. */
  current(): TemporalState {
    if (Date.now() - this.knownAt > (this.options.freshMs ?? 1_000)) void this.check();
    return this.value;
  }

  /**
   * Probes now, sharing a probe already under way; true when Temporal answers. Without a probe it
   * resolves true and changes nothing: the caller finds out with a signal.
   */
  check(): Promise<boolean> {
    const probe = this.options.probe;
    if (!probe) return Promise.resolve(true);
    this.probing ??= probe()
      .then(
        () => true,
        () => false,
      )
      .then((answers) => {
        this.probing = undefined;
        this.set(answers ? 'reachable' : 'unreachable');
        return answers;
      });
    return this.probing;
  }

  /** Resolves once no probe is under way. */
  async settled(): Promise<void> {
    await this.probing;
  }

  /** What a refusal means; Temporal is marked down only on an answer that says so or a failed probe. */
  async judge(refusal: Refusal): Promise<Verdict> {
    switch (refusal.kind) {
      case 'permanent':
      case 'resource':
        this.answered();
        return refusal.kind;
      case 'unavailable':
        this.unreachable();
        return 'unavailable';
      case 'uncertain':
        if (!this.options.probe) return 'resource';
        return (await this.check()) ? 'resource' : 'unavailable';
    }
  }

  private set(state: TemporalState): void {
    this.knownAt = Date.now();
    if (state === this.value) return;
    this.value = state;
    for (const listener of this.listeners) listener(state);
  }
}
