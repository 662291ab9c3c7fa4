/**
 * The Temporal SDK's per-call watchdog (`@temporalio/worker`, `lib/workflow/reusable-vm.js`): every
 * call into the workflow sandbox (an activation, its conclusion, a query, …) runs with
 * `isolateExecutionTimeout` (5 s by default) as the `vm` call's `timeout`, and Node starts a
 * watchdog thread for each call that has one. The SDK has no option to go without it.
 *
 * A replay runs its workflows on the calling thread, so the benchmark can take the timeout off the
 * `vm` calls of its own process and replay the same histories again: the workflows' CPU apart from
 * the watchdog's. A worker keeps it: it is what stops a workflow task stuck in a loop.
 */
import vm from 'node:vm';

/** Drops the `timeout` of every `vm.Script` run in this process from now on. */
export function removeCallWatchdog(): void {
  const runInContext = vm.Script.prototype.runInContext;
  vm.Script.prototype.runInContext = function (context, options) {
    return runInContext.call(this, context, options && { ...options, timeout: undefined });
  };
}
