/**
 * The prebuilt workflow bundle of a build: `dist/workflow-bundle.js`, beside the compiled code.
 * A worker run from dist/ uses it (no bundling at start); one run from the sources bundles
 * `workflows/` itself. `WORKFLOW_BUNDLE` names another file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowBundleOption } from '@temporalio/worker';
import { ConfigurationError } from '../config/environment';

/** Compiled, this file is dist/worker/prebuiltBundle.js: the bundle sits in dist/. */
export const prebuiltBundlePath = path.resolve(__dirname, '..', 'workflow-bundle.js');

export function prebuiltWorkflowBundle(env: NodeJS.ProcessEnv = process.env): WorkflowBundleOption | undefined {
  const named = env.WORKFLOW_BUNDLE;
  if (named && !existsSync(named))
    throw new ConfigurationError(
      `WORKFLOW_BUNDLE: ${named} does not exist; run \`npm run build\`, or unset it to bundle workflows/ at start`,
    );
  const codePath = named ?? prebuiltBundlePath;
  return existsSync(codePath) ? { codePath } : undefined;
}
