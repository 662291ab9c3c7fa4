/**
 * A probe's workflows bundled once into a file of the run's temporary folder, for workers and
 * replays to load by path (`workflowBundle: { codePath }`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { testDirectory } from '../setup/testEnvironment';

export async function probeBundle(workflowsPath: string, name: string): Promise<string> {
  const bundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  const dir = testDirectory(name);
  mkdirSync(dir, { recursive: true });
  const bundlePath = path.join(dir, 'bundle.js');
  writeFileSync(bundlePath, bundle.code);
  return bundlePath;
}
