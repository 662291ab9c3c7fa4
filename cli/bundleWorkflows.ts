/**
 * `npm run build`'s last step: the workflow bundle, built once with the project's failure
 * converter, so production workers start without bundling (`dist/workflow-bundle.js`, which
 * `worker/main.ts` finds beside the compiled code).
 */
import { writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { prebuiltBundlePath } from '../worker/prebuiltBundle';
import { workflowBundleOptions } from '../worker/workflowBundle';

async function main(): Promise<void> {
  const out = process.argv[2] ?? prebuiltBundlePath;
  const { code } = await bundleWorkflowCode(workflowBundleOptions());
  writeFileSync(out, code);
  console.log(`workflow bundle: ${out} (${Math.round(code.length / 1024)} KiB)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
