/**
 * A probe's workflows bundled once into a file of the run's temporary folder, for workers and
 * replays to load by path (`workflowBundle: { codePath }`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../../worker/workflowBundle';
import { testDirectory } from '../setup/testEnvironment';

export async function probeBundle(workflowsPath: string, name: string): Promise<string> {
  const bundle = await bundleWorkflowCode(workflowBundleOptions(workflowsPath));
  const dir = testDirectory(name);
  mkdirSync(dir, { recursive: true });
  const bundlePath = path.join(dir, 'bundle.js');
  writeFileSync(bundlePath, bundle.code);
  return bundlePath;
}
