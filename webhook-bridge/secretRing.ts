/**
 * The secrets a delivery may be signed with (spec §6.3.5): the current one, and the previous one
 * while a rotation's grace period lasts. They come from configuration, or from the provider's
 * read-secret operation: cached, and read again when a signature fails with every known secret
 * (at most once a minute), which is how a rotation at the provider reaches the bridge.
 *
 * Read from the provider, the secrets are not known until the provider has answered once; the
 * first read is retried in the background (startLoading) so that the bridge starts, and keeps
 * deliveries, whatever the provider does meanwhile.
 */

export interface SecretRingOptions {
  current?: string;
  previous?: string;
  /** When the previous secret stops being accepted; unset: as long as it is configured. */
  previousValidUntil?: number;
  /** How long a secret replaced by a read from the provider stays accepted. */
  graceMs?: number;
  /** Reads the current secret from the provider (null when none exists). */
  readFromProvider?: () => Promise<string | null>;
  minRefreshIntervalMs?: number;
  now?: () => number;
}

export class SecretRing {
  private current: string | undefined;
  private previous: string | undefined;
  private previousValidUntil: number | undefined;
  private lastRefresh = Number.NEGATIVE_INFINITY;
  private lastReadFailed = false;
  private refreshing?: Promise<boolean>;
  private isKnown: boolean;
  private readonly knownListeners: (() => void)[] = [];
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly options: SecretRingOptions) {
    this.current = options.current;
    this.previous = options.previous;
    this.previousValidUntil = options.previousValidUntil;
    this.isKnown = options.readFromProvider === undefined;
  }

  /** Whether the secrets are known: configured, or read from the provider at least once. */
  get known(): boolean {
    return this.isKnown;
  }

  /**
   * Whether the provider failed the last read: a signature that matches no known secret may then
   * be signed with one we could not read yet, and is kept rather than refused.
   */
  get readFailing(): boolean {
    return this.lastReadFailed;
  }

  /** Reads from the provider, remembering whether it answered. */
  private async readProvider(read: () => Promise<string | null>): Promise<string | null> {
    try {
      const latest = await read();
      this.lastReadFailed = false;
      return latest;
    } catch (error) {
      this.lastReadFailed = true;
      throw error;
    }
  }

  /** Called once, when the secrets become known (at once if they are). */
  onKnown(listener: () => void): void {
    if (this.isKnown) listener();
    else this.knownListeners.push(listener);
  }

  private markKnown(): void {
    if (this.isKnown) return;
    this.isKnown = true;
    for (const listener of this.knownListeners.splice(0)) listener();
  }

  /**
   * Reads the provider's secret until it answers, with exponential backoff; never throws (a
   * provider that is down at start must not stop the bridge). `onFailure` hears of each attempt
   * that failed.
   */
  startLoading(
    retry: { initialMs: number; maxMs: number },
    onFailure: (error: unknown, retryInMs: number) => void,
  ): void {
    const attempt = (delay: number): void => {
      if (this.stopped || this.isKnown) return;
      this.load().then(
        () => undefined,
        (error: unknown) => {
          if (this.stopped) return;
          onFailure(error, delay);
          this.retryTimer = setTimeout(() => attempt(Math.min(retry.maxMs, delay * 2)), delay);
        },
      );
    };
    attempt(retry.initialMs);
  }

  /** Stops the background read. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** The secrets to try, current first. */
  secrets(): string[] {
    const previousValid =
      this.previous !== undefined && (this.previousValidUntil === undefined || this.now() < this.previousValidUntil);
    return [this.current, previousValid ? this.previous : undefined].filter((s): s is string => s !== undefined);
  }

  get fromProvider(): boolean {
    return this.options.readFromProvider !== undefined;
  }

  /**
   * Reads the provider's secret again, unless that happened less than a minute ago. Resolves
   * true when the secrets changed (so a failed check is worth repeating).
   */
  async refresh(): Promise<boolean> {
    const read = this.options.readFromProvider;
    if (!read) return false;
    // Deliveries that arrive while a read is under way wait for its answer: the rate limit below
    // would otherwise answer them "unchanged" at once, and refuse them for a secret that is coming.
    if (this.refreshing) return this.refreshing;
    if (this.now() - this.lastRefresh < (this.options.minRefreshIntervalMs ?? 60_000)) return false;
    this.refreshing ??= this.doRefresh(read).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** The first read, at start: it does not count against the once-a-minute limit of refreshes. */
  async load(): Promise<void> {
    const read = this.options.readFromProvider;
    if (!read) return;
    const latest = await this.readProvider(read);
    if (latest !== null) this.current = latest;
    this.markKnown();
  }

  private async doRefresh(read: () => Promise<string | null>): Promise<boolean> {
    this.lastRefresh = this.now();
    const latest = await this.readProvider(read);
    this.markKnown();
    if (latest === null || latest === this.current) return false;
    if (this.current !== undefined) {
      this.previous = this.current;
      this.previousValidUntil = this.now() + (this.options.graceMs ?? 60 * 60 * 1000);
    }
    this.current = latest;
    return true;
  }

  /** Replaces the secrets (configuration reload, tests). */
  set(current: string | undefined, previous?: string, previousValidUntil?: number): void {
    this.current = current;
    this.previous = previous;
    this.previousValidUntil = previousValidUntil;
    this.markKnown();
  }
}
