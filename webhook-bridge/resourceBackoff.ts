/**
 * The spool drain's waits, per resource workflow: a resource whose delivery was not taken waits
 * alone, its delay doubling from `initialMs` up to `maxMs` with each failure and forgotten once one
 * of its deliveries is taken, so one troubled workflow is tried rarely and holds back no other.
 */
export class ResourceBackoff {
  private readonly waits = new Map<string, { delayMs: number; until: number }>();

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}

  /** Resources waiting now. */
  get size(): number {
    return this.waits.size;
  }

  /** Whether any of these resources must not be tried yet. */
  waiting(keys: readonly string[], now = Date.now()): boolean {
    return keys.some((k) => (this.waits.get(k)?.until ?? 0) > now);
  }

  failed(keys: readonly string[], now = Date.now()): void {
    for (const k of keys) {
      const previous = this.waits.get(k);
      const delayMs = previous ? Math.min(this.maxMs, previous.delayMs * 2) : this.initialMs;
      this.waits.set(k, { delayMs, until: now + delayMs });
    }
  }

  succeeded(keys: readonly string[]): void {
    for (const k of keys) this.waits.delete(k);
  }

  /** When the first waiting resource may be tried again; undefined when none waits. */
  nextAt(): number | undefined {
    let next: number | undefined;
    for (const { until } of this.waits.values()) if (next === undefined || until < next) next = until;
    return next;
  }

  /** Forgets resources with nothing left in the spool. */
  keepOnly(keys: ReadonlySet<string>): void {
    for (const k of this.waits.keys()) if (!keys.has(k)) this.waits.delete(k);
  }

  clear(): void {
    this.waits.clear();
  }
}
