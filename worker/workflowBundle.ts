/**
 * How the workflows are bundled: one set of options for the worker, the prebuilt bundle, replays,
 * the tests and the benchmarks, so that each runs the workflows as a deployed worker does.
 *
 * The worker runs every workflow in one reused V8 context (unless WORKER_REUSE_V8_CONTEXT=false,
 * which gives each workflow a context of its own and preloads nothing). A new run evaluates the
 * bundle's modules again, in a module cache of its own, unless they are preloaded: then they are
 * evaluated once, when the worker builds its context, and every run shares them (the SDK freezes
 * what they export). The workflows' modules are preloaded, which saves about 1 ms of the 7 ms of
 * CPU a workflow start costs the worker (`npm run bench:start-cpu`, docs/benchmarks.md). The price
 * is a rule: no workflow module keeps state of its own; a workflow's state lives in its function's
 * scope and the objects it creates (test/unit/workflowBundleContents.test.ts checks the modules).
 */
import type { BundleOptions } from '@temporalio/worker';
import { DefaultLogger } from '@temporalio/worker';
import { failureConverterPath } from '../codec/dataConverter';

export const workflowsPath = require.resolve('../workflows');

/** For a worker or a replay that bundles `path` itself (`bundlerOptions`). */
export const bundlerOptionsFor = (path: string) => ({ preloadModules: [path] });

/**
 * For `bundleWorkflowCode`: the project's workflows, or a test's probe workflows bundled the same
 * way; `failureConverter` null for workflows whose worker uses the SDK's default data converter.
 */
export function workflowBundleOptions(
  path: string = workflowsPath,
  failureConverter: string | null = failureConverterPath,
): BundleOptions {
  return {
    workflowsPath: path,
    failureConverterPath: failureConverter ?? undefined,
    logger: new DefaultLogger('WARN'),
    ...bundlerOptionsFor(path),
  };
}
