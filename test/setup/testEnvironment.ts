/** What a suite needs from the global setup: the dev server, the case file and the prebuilt workflow bundle. */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { WorkflowBundleOption } from '@temporalio/worker';
import { EMBEDDED_POOL_SIZE } from '../../case-file/pool';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import type { TemporalConfig } from '../../config/temporalConfig';

/**
 * Namespaces the global setup creates beside `default` for the suites that would otherwise share
 * state a task queue does not separate: workflow ids are unique per namespace, and the unrouted
 * deliveries of a day go to one workflow per event type (`resource/unrouted/<type>/<day>`), which
 * the first suite to deliver one starts on its own task queue, and which outlives that suite's
 * worker. Each namespace here belongs to one suite; every other suite uses `default`.
 */
export const suiteNamespaces = {
  /** bridge.test: queries the unrouted workflows its deliveries start. */
  bridge: 'suite-bridge',
  /** bridgeProperties.test: thousands of random deliveries, many of them unroutable, no worker. */
  bridgeProperties: 'suite-bridge-properties',
} as const;

/**
 * A Temporal config on the shared dev server with a task queue of the suite's own (and a namespace,
 * when it has one).
 */
export function testTemporalConfig(
  namespace: (typeof suiteNamespaces)[keyof typeof suiteNamespaces] | 'default' = 'default',
): TemporalConfig {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  if (!address)
    throw new Error('TEST_TEMPORAL_ADDRESS is unset: run the tests through jest (global setup starts Temporal)');
  return { address, namespace, taskQueue: `test-${randomUUID()}` };
}

export function testWorkflowBundle(): WorkflowBundleOption {
  const codePath = process.env.TEST_WORKFLOW_BUNDLE;
  if (!codePath) throw new Error('TEST_WORKFLOW_BUNDLE is unset: run the tests through jest');
  return { codePath };
}

/** A fresh directory under the run's temporary folder (a bridge spool, say). */
export function testDirectory(name: string): string {
  const root = process.env.TEST_TEMP_DIR;
  if (!root) throw new Error('TEST_TEMP_DIR is unset: run the tests through jest');
  return path.join(root, `${name}-${randomUUID()}`);
}

/** PostgreSQL (TEST_CASE_FILE_DATABASE_URL) takes several connections; the embedded PGlite serves one. */
const POSTGRES_POOL_SIZE = 4;
const testPoolSize = () => (process.env.TEST_CASE_FILE_DATABASE_URL ? POSTGRES_POOL_SIZE : EMBEDDED_POOL_SIZE);

/** The run's case file (global setup), migrated, on a pool of its own; close it after the suite. */
export async function testCaseFile(): Promise<CaseFileStore> {
  return openCaseFile(testCaseFileUrl(), testPoolSize());
}

export function testCaseFileUrl(): string {
  const url = process.env.TEST_CASE_FILE_URL;
  if (!url)
    throw new Error('TEST_CASE_FILE_URL is unset: run the tests through jest (global setup starts the case file)');
  return url;
}

/** The stack option that points a stack at the run's case file instead of starting one. */
export function testCaseFileOption(): { url: string; poolSize: number } {
  return { url: testCaseFileUrl(), poolSize: testPoolSize() };
}
