/**
 * Starts one throwaway (in-memory, headless) Temporal dev server (namespace `default`, and one
 * namespace for each suite in `suiteNamespaces`) and one in-memory case file
 * (PGlite served over the wire protocol), and bundles the workflows once for every suite; suites
 * read both from the environment (see testEnvironment.ts). Every run encrypts payloads under a key
 * of its own (PAYLOAD_ENCRYPTION_KEYS, inherited by the suites and by the processes they spawn), so
 * no test touches the checkout's .data key. With TEST_CASE_FILE_DATABASE_URL set (CI:
 * .ci/with-postgres), the suites use that PostgreSQL as their case file instead of the embedded
 * PGlite.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startEmbeddedCaseFile } from '../../case-file/embeddedServer';
import { startDevServer } from '../../cli/devServer';
import { formatPayloadKeys, generatePayloadKey } from '../../codec/payloadKeys';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { workflowBundleOptions } from '../../worker/workflowBundle';
import { suiteNamespaces } from './testEnvironment';

export default async function globalSetup(): Promise<void> {
  process.env.PAYLOAD_ENCRYPTION_KEYS ??= formatPayloadKeys([generatePayloadKey('test-run')]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'journeys-test-'));
  const cliPath = await resolveTemporalCli({ log: (line) => console.log(line) });
  const postgresUrl = process.env.TEST_CASE_FILE_DATABASE_URL;
  const [server, bundle, caseFile] = await Promise.all([
    startDevServer({
      cliPath,
      logFile: path.join(dir, 'temporal-dev-server.log'),
      extraNamespaces: Object.values(suiteNamespaces),
    }),
    bundleWorkflowCode(workflowBundleOptions()),
    postgresUrl ? undefined : startEmbeddedCaseFile(),
  ]);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  process.env.TEST_TEMPORAL_ADDRESS = server.address;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  process.env.TEST_TEMP_DIR = dir;
  process.env.TEST_CASE_FILE_URL = postgresUrl ?? caseFile?.url;
  Object.assign(globalThis, { __devServer: server, __caseFile: caseFile });
}
