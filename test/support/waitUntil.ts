/**
 * Waits for a condition with a deadline, instead of a fixed sleep or a loop that only jest's
 * timeout ends: resolves with the first value `probe` returns other than undefined or false, and
 * fails naming what did not happen (and the last thing the probe threw) when the deadline passes,
 * or when `signal` stops it (a wait beside one that failed: it probes no more).
 */
export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  signal?: AbortSignal;
}

export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 50, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    if (signal?.aborted) throw new Error(`${what}: stopped`);
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`${what}: did not happen within ${timeoutMs} ms${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
