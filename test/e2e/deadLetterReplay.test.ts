/**
 * `npm run bridge:dead-letters -- replay <id>` as an operator runs it, as a process of its own
 * against the run's Temporal: the delivery it signals reaches the resource workflow's history as
 * ciphertext only (read raw, without the codec, the applicant's name is nowhere), and the letter is
 * gone from the store once Temporal took it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DeadLetterStore } from '../../webhook-bridge/deadLetters';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';
import { envelope, idvCompleted } from '../support/deliveries';

const root = path.join(__dirname, '..', '..');
const temporalConfig = testTemporalConfig();
let connection: Connection;
/** A client without the codec: what anyone with access to Temporal (or its database) sees. */
let plainClient: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: temporalConfig.address });
  plainClient = new Client({ connection, namespace: temporalConfig.namespace });
});

afterAll(async () => {
  await connection?.close();
});

function runDeadLetters(spoolDir: string, ...args: string[]) {
  const env = {
    ...process.env,
    BRIDGE_SPOOL_DIR: spoolDir,
    TEMPORAL_ADDRESS: temporalConfig.address,
    TEMPORAL_NAMESPACE: temporalConfig.namespace,
    TEMPORAL_TASK_QUEUE: temporalConfig.taskQueue,
    WEBHOOK_ALLOW_UNSIGNED: 'true',
  };
  // The command an operator runs (--silent: npm's banner would precede the JSON line).
  return promisify(execFile)('npm', ['run', '--silent', 'bridge:dead-letters', '--', ...args], { cwd: root, env });
}

test('a replayed dead letter reaches Temporal encrypted, and leaves the store', async () => {
  const spoolDir = testDirectory('dead-letter-replay');
  const requestId = `dl-${randomUUID()}`;
  const workflowId = `resource/idv/${requestId}`;
  const store = new DeadLetterStore(spoolDir);
  const body = Buffer.from(envelope('IdentityVerification.Completed', idvCompleted(requestId)));
  const letter = store.put(
    { receivedAt: new Date().toISOString(), batchId: 'batch-dl', body, workflowIds: [workflowId] },
    { kind: 'permanent', grpcCode: 3, reason: 'Blob data size exceeds limit.' },
  );

  const { stdout } = await runDeadLetters(spoolDir, 'replay', letter.id);
  expect(JSON.parse(stdout)).toEqual({ id: letter.id, outcome: 'replayed', workflowIds: [workflowId] });
  expect(store.count).toBe(0);

  const handle = plainClient.workflow.getHandle(workflowId);
  try {
    const history = await handle.fetchHistory();
    const raw = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
    const signalled = history.events?.find((e) => e.workflowExecutionSignaledEventAttributes);
    expect(signalled).toBeDefined();
    // Booleans, not toContain: a failure would print the plaintext history into the test log.
    expect({ applicantName: raw.includes('Lovelace'), plainPayload: raw.includes('json/plain') }).toEqual({
      applicantName: false,
      plainPayload: false,
    });
    expect(raw.includes('binary/encrypted')).toBe(true);
  } finally {
    await handle.terminate('test over').catch(() => undefined);
  }
});
