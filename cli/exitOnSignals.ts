/**
 * Ends a long-running command when asked: on SIGINT (Ctrl-C) or SIGTERM (`kill`, `timeout`) the
 * process runs `stop` and exits with the shell's code for the signal (130, 143).
 *
 * Why it is needed: the Temporal SDK's Runtime listens for both signals to shut its workers down,
 * and a process with a listener no longer ends on them, so a command with no worker (`journey
 * watch`) would otherwise go on until SIGKILL. `stop` is bounded: past `limitMs` the process
 * exits whatever it is still doing, and a second signal is taken as the same request.
 */
export const signalExitCodes = { SIGINT: 130, SIGTERM: 143 } as const;

export type StopSignal = keyof typeof signalExitCodes;

export function exitOnSignals(stop: (signal: StopSignal) => Promise<void> | void = () => {}, limitMs = 2_000): void {
  let stopping = false;
  for (const signal of Object.keys(signalExitCodes) as StopSignal[]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      const code = signalExitCodes[signal];
      setTimeout(() => process.exit(code), limitMs).unref();
      void Promise.resolve()
        .then(() => stop(signal))
        .catch(() => undefined)
        .finally(() => process.exit(code));
    });
  }
}
