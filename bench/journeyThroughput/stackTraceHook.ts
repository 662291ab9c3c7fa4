/**
 * The Temporal SDK's promise hook (`@temporalio/worker`, `lib/workflow/vm-shared.js`): for every
 * promise a workflow creates, it compiles a function to find the sandbox's `Error`, takes a stack
 * trace and maps each frame through the bundle's source map, for the `__stack_trace` query (the
 * Web UI's stack trace of a running workflow). The SDK has no option to turn it off.
 *
 * A replay runs its workflows on the calling thread, so the benchmark can take the hook out of its
 * own process and replay the same histories again: the workflows' CPU apart from the hook's. A
 * worker keeps it: operators read a stuck workflow's stack trace in the Web UI.
 */
import { globalHandlers } from '@temporalio/worker/lib/workflow/vm-shared';

/** Removes the hook from this process; the replays after this run without it. */
export function removeStackTraceHook(): void {
  globalHandlers.uninstall();
  // The next replay worker installs the handlers again (`install()`), this time with no hook.
  Object.assign(globalHandlers, { setPromiseHook: () => {} });
}
