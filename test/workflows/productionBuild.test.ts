/**
 * The build a deployment runs: `npm run build` compiles to dist/ with the workflow bundle prebuilt,
 * and the compiled worker and bridge (`worker:prod`, `bridge:prod`: plain node, no tsx) complete a
 * journey with the simulator, over real HTTP and a real Temporal.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { ProviderClient } from '../../activities/providerClient';
import { registerWebhook } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testCaseFileUrl, testDirectory, testTemporalConfig } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
// Under the project (node_modules/.cache), so the compiled code finds the project's node_modules as dist/ would.
const out = path.join(root, 'node_modules', '.cache', `journeys-build-${process.pid}`, 'dist');
const children: ChildProcess[] = [];
let simulator: RunningSimulator;
let connection: Connection;

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
  await connection?.close();
  await simulator?.stop();
  rmSync(path.dirname(out), { recursive: true, force: true });
});

/** Starts a compiled entry point and resolves once it prints `ready` (its readiness line). */
function startCompiled(entry: string, env: Record<string, string>, ready: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(out, entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve(child);
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready:\n${output}`)));
  });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

test('the compiled worker and bridge, with the prebuilt workflow bundle, complete a journey', async () => {
  await run('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', out], { cwd: root });
  await run(process.execPath, [path.join(out, 'cli/bundleWorkflows.js')], { cwd: root });
  expect(existsSync(path.join(out, 'workflow-bundle.js'))).toBe(true);

  const temporal = testTemporalConfig();
  simulator = await startSimulator({
    port: 0,
    clientId: 'prod-client',
    clientSecret: 'prod-secret',
    seed: 71,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 20,
  });
  const providerEnv = {
    PROVIDER_BASE_URL: simulator.baseUrl,
    PROVIDER_AUTH_URL: simulator.authUrl,
    PROVIDER_CLIENT_ID: 'prod-client',
    PROVIDER_CLIENT_SECRET: 'prod-secret',
  };
  const temporalEnv = {
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace,
    TEMPORAL_TASK_QUEUE: temporal.taskQueue,
  };
  const bridgePort = await freePort();
  const provider = new ProviderClient({
    baseUrl: simulator.baseUrl,
    authUrl: simulator.authUrl,
    clientId: 'prod-client',
    clientSecrets: ['prod-secret'],
    requestTimeoutMs: 5_000,
  });
  const secret = await registerWebhook(provider, simulator, `http://127.0.0.1:${bridgePort}/webhooks`);

  await Promise.all([
    startCompiled(
      'webhook-bridge/main.js',
      {
        ...temporalEnv,
        BRIDGE_PORT: String(bridgePort),
        WEBHOOK_SECRET: secret,
        BRIDGE_SPOOL_DIR: testDirectory('prod-spool'),
      },
      /bridge listening/,
    ),
    startCompiled(
      'worker/main.js',
      { ...temporalEnv, ...providerEnv, DATABASE_URL: testCaseFileUrl() },
      /worker running/,
    ),
  ]);

  connection = await Connection.connect({ address: temporal.address });
  const client = new Client({
    connection,
    namespace: temporal.namespace,
    dataConverter: dataConverterFor(readPayloadKeys()),
  });
  const control = simulatorControl(simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await startOnboardCase(client, {
    workflowId: `case/${caseId}`,
    taskQueue: temporal.taskQueue,
    args: [{ caseId, people: [{ personId }], steps: { identityVerification: true } }],
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[`identity-verification/${personId}`]?.state === 'waiting',
  );
  await control(
    `/identity-verifications/${waiting.steps[`identity-verification/${personId}`]!.providerIds.request_id}/complete`,
    { verification_status: 'Approved' },
  );
  expect(await handle.result()).toMatchObject({ state: 'completed' });
}, 240_000);
