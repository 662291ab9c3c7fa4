/**
 * The end of every benchmark script: run `main`, then exit with the code it returns (or the
 * `process.exitCode` it set), or 1 when it throws. Exiting rather than letting the event loop
 * drain: gRPC retries against a dev server that has been stopped must not outlive the benchmark.
 */
export function exitWhenDone(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? process.exitCode ?? 0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
