/** Asynchronous provider work (processing, insights) with a way to wait until all of it is done. */
export class Jobs {
  private pending = new Set<Promise<unknown>>();

  /** `afterEach` runs when a job has ended (the simulator saves its state then). */
  constructor(
    readonly delayMs: number,
    private readonly afterEach: () => void = () => {},
  ) {}

  /** Runs `work` after the configured delay; failures are logged, never thrown into the API. */
  schedule(work: () => Promise<unknown>): void {
    const job = new Promise((r) => setTimeout(r, this.delayMs))
      .then(work)
      .catch((error) => console.error('simulator job failed', error))
      .finally(this.afterEach);
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
