/**
 * The real Temporal CLI through the codec server, as an operator runs it (`--codec-endpoint`, and
 * the bearer token in `TEMPORAL_CODEC_AUTH` or `--codec-auth`): start with input, query with and
 * without arguments, signal, update, `workflow show`, `describe`, `reset`. What the CLI sends is
 * encrypted in the history (read here by a client without the codec), and what it prints is
 * decoded.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { generateCodecServerToken } from '../../codec/codecServerConfig';
import { dataConverterFor } from '../../codec/dataConverter';
import { generatePayloadKey } from '../../codec/payloadKeys';
import { startCodecServer, type RunningCodecServer } from '../../codec/startCodecServer';
import { testTemporalConfig } from '../setup/testEnvironment';
import { bundlerOptionsFor } from '../../worker/workflowBundle';

const run = promisify(execFile);
const key = generatePayloadKey('cli-codec-test');
const token = generateCodecServerToken();
const temporal = testTemporalConfig();
const workflowId = `codec-probe-${randomUUID()}`;
const codecProbePath = require.resolve('../support/codecProbeWorkflow');
let cli: string;
let codecServer: RunningCodecServer;
let worker: Worker;
let workerRun: Promise<void>;
let plainClient: Client;

beforeAll(async () => {
  cli = await resolveTemporalCli();
  codecServer = await startCodecServer(
    { port: 0, token, allowedOrigins: ['http://127.0.0.1:8233'], maxBodyBytes: 1024 * 1024 },
    [key],
  );
  const connection = await (await import('@temporalio/worker')).NativeConnection.connect({ address: temporal.address });
  worker = await Worker.create({
    connection,
    taskQueue: temporal.taskQueue,
    workflowsPath: codecProbePath,
    bundlerOptions: bundlerOptionsFor(codecProbePath),
    dataConverter: dataConverterFor([key]),
  });
  workerRun = worker.run();
  plainClient = new Client({ connection: await Connection.connect({ address: temporal.address }) });
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await workerRun;
  await plainClient?.connection.close();
  await codecServer?.stop();
});

/**
 * The CLI against the test's dev server, through the codec server with its bearer token. The
 * token goes in the CLI's environment (TEMPORAL_CODEC_AUTH, the variable behind `--codec-auth`),
 * so no command line, `ps` listing or failure message carries it.
 */
async function temporalCli(...args: string[]): Promise<string> {
  const env = { ...process.env, TEMPORAL_CODEC_AUTH: `Bearer ${token}` };
  const { stdout } = await run(
    cli,
    [...args, '--address', temporal.address, '--namespace', temporal.namespace, '--codec-endpoint', codecServer.url],
    { timeout: 30_000, env },
  );
  return stdout;
}

const json = <T>(stdout: string): T => JSON.parse(stdout) as T;
type QueryOutput = { queryResult: unknown[] };

/** The decoded `data` of every payload in the CLI's JSON output (proto3 JSON: Base64). */
function payloadDataIn(output: string): string[] {
  return [...output.matchAll(/"data": "([A-Za-z0-9+/=]*)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString());
}

async function historyEncodings(runId?: string): Promise<string[]> {
  const history = await plainClient.workflow.getHandle(workflowId, runId).fetchHistory();
  const payloads = (history.events ?? []).flatMap((event) => [
    ...(event.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
    ...(event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []),
    ...(event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.args?.payloads ?? []),
  ]);
  return payloads.map((p) => Buffer.from(p.metadata?.encoding ?? []).toString());
}

test('start, query with and without arguments, signal, update, show, describe and reset, all through the codec server', async () => {
  const started = json<{ runId: string }>(
    await temporalCli(
      'workflow',
      'start',
      '--type',
      'codecProbe',
      '--task-queue',
      temporal.taskQueue,
      '--workflow-id',
      workflowId,
      '--input',
      '{"applicant":"Ada Lovelace"}',
      '--output',
      'json',
    ),
  );
  expect(started.runId).toMatch(/\S/);

  expect(
    json<QueryOutput>(
      await temporalCli('workflow', 'query', '-w', workflowId, '--name', 'applicant', '--output', 'json'),
    ).queryResult,
  ).toEqual(['Ada Lovelace']);
  expect(
    json<QueryOutput>(
      await temporalCli(
        'workflow',
        'query',
        '-w',
        workflowId,
        '--name',
        'greeting',
        '--input',
        '"Hello"',
        '--output',
        'json',
      ),
    ).queryResult,
  ).toEqual(['Hello, Ada Lovelace']);

  await temporalCli('workflow', 'signal', '-w', workflowId, '--name', 'note', '--input', '"called the applicant"');
  const updated = await temporalCli(
    'workflow',
    'update',
    'execute',
    '-w',
    workflowId,
    '--name',
    'label',
    '--input',
    '"priority"',
    '--output',
    'json',
  );
  expect(JSON.stringify(json(updated))).toContain('labelled priority');
  expect(
    json<QueryOutput>(await temporalCli('workflow', 'query', '-w', workflowId, '--name', 'notes', '--output', 'json'))
      .queryResult,
  ).toEqual([['called the applicant', 'label:priority']]);

  // What the CLI sent went through /encode: the history holds ciphertext only.
  const encodings = await historyEncodings();
  expect(encodings.length).toBeGreaterThanOrEqual(3);
  expect(new Set(encodings)).toEqual(new Set(['binary/encrypted']));

  // show and describe decode through /decode.
  const shown = await temporalCli('workflow', 'show', '-w', workflowId, '--output', 'json');
  expect(shown).not.toContain(Buffer.from('binary/encrypted').toString('base64'));
  const shownData = payloadDataIn(shown);
  expect(shownData).toContain('{"applicant":"Ada Lovelace"}');
  expect(shownData).toContain('"called the applicant"');
  expect(shownData).toContain('"labelled priority"');
  const described = await temporalCli('workflow', 'describe', '-w', workflowId, '--output', 'json');
  expect(json<{ workflowExecutionInfo: { type: { name: string } } }>(described).workflowExecutionInfo.type.name).toBe(
    'codecProbe',
  );

  const reset = json<{ runId?: string }>(
    await temporalCli(
      'workflow',
      'reset',
      '-w',
      workflowId,
      '--type',
      'FirstWorkflowTask',
      '--reason',
      'codec e2e',
      '--output',
      'json',
    ),
  );
  const resetRun = (await plainClient.workflow.getHandle(workflowId).describe()).runId;
  expect(resetRun).not.toBe(started.runId);
  if (reset.runId) expect(reset.runId).toBe(resetRun);
  expect(
    json<QueryOutput>(
      await temporalCli(
        'workflow',
        'query',
        '-w',
        workflowId,
        '--name',
        'greeting',
        '--input',
        '"Welcome back"',
        '--output',
        'json',
      ),
    ).queryResult,
  ).toEqual(['Welcome back, Ada Lovelace']);
  // The signal after the reset point is reapplied to the new run, still decodable.
  expect(
    json<QueryOutput>(await temporalCli('workflow', 'query', '-w', workflowId, '--name', 'notes', '--output', 'json'))
      .queryResult[0],
  ).toContain('called the applicant');

  await temporalCli('workflow', 'signal', '-w', workflowId, '--name', 'finish');
  const result = await plainClient.workflow
    .getHandle(workflowId, undefined, { followRuns: true })
    .result()
    .catch((e: Error) => e);
  // The plain client has no codec: the result is still encrypted to it, so it fails to decode.
  expect(result).toBeInstanceOf(Error);
  const finished = json<{ workflowExecutionInfo: { status: string } }>(
    await temporalCli('workflow', 'describe', '-w', workflowId, '--output', 'json'),
  );
  expect(finished.workflowExecutionInfo.status).toMatch(/COMPLETED/);
}, 120_000);
