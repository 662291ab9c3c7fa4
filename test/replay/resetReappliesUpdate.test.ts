/**
 * A reset reapplies the Updates and signals that came after its point to the new run, an Update as
 * UPDATE_ADMITTED, and the new run's first new task takes them together. Here, reset to the task
 * that took an Update, with a signal after it, a workflow whose loop reacts in the continuation of
 * its wait does not replay: live, the worker takes the run's start, the signal and the Update in
 * one activation (the Update runs with the signal applied and the loop not yet started), so the
 * loop sees nothing new and starts no timer; a replay takes the start alone, then the signal and
 * the Update, and starts one. Without the signal it replays; and a loop that reacts on every pass
 * to the state it finds, as the journey's does, replays with it.
 *
 * The probes: test/support/resetUpdateProbe.ts. docs/reliability.md, "Journey runs that replay".
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { testTemporalConfig } from '../setup/testEnvironment';
import { probeBundle } from '../support/probeBundle';
import { changeSignal, changeUpdate } from '../support/resetUpdateProbe';
import { reapplied } from '../support/resetReapplied';
import { waitUntil } from '../support/waitUntil';

const EventType = temporal.api.enums.v1.EventType;
const { address, namespace } = testTemporalConfig();
const taskQueue = `reset-update-${randomUUID()}`;
let bundlePath: string;
let connection: Connection;
let client: Client;
let workerConnection: NativeConnection;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  bundlePath = await probeBundle(require.resolve('../support/resetUpdateProbe'), 'reset-update');
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace });
  workerConnection = await NativeConnection.connect({ address });
  worker = await Worker.create({
    connection: workerConnection,
    namespace,
    taskQueue,
    workflowBundle: { codePath: bundlePath },
  });
  running = worker.run();
}, 60_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await workerConnection?.close();
  await connection?.close();
});

const typesOf = async (handle: WorkflowHandle) =>
  ((await handle.fetchHistory()).events ?? []).map((event) => Number(event.eventType));
const count = (types: number[], type: number) => types.filter((t) => t === type).length;

/**
 * Runs the probe through an Update (and a signal after it, when asked), resets it to the task that
 * took the Update, and answers the new run's history once the worker has answered the reapplied
 * Update. The new run keeps the task before (the loop waiting).
 */
async function historyAfterReset(
  workflowType: string,
  signalAfterUpdate: boolean,
): Promise<temporal.api.history.v1.IHistory> {
  const handle = await client.workflow.start(workflowType, { taskQueue, workflowId: `reset-update-${randomUUID()}` });
  // The Update in a task of its own: sent before the first task is taken, it would share it.
  await waitUntil(
    'the probe starts',
    async () => count(await typesOf(handle), EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) === 1,
  );
  await handle.executeUpdate(changeUpdate);
  if (signalAfterUpdate) await handle.signal(changeSignal);
  const tasks = signalAfterUpdate ? 3 : 2;
  await waitUntil(
    'the probe takes the Update and the signal',
    async () => count(await typesOf(handle), EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) === tasks,
  );

  const updateTask = ((await handle.fetchHistory()).events ?? []).filter(
    (e) => e.workflowTaskCompletedEventAttributes,
  )[1];
  const { runId } = await client.workflowService.resetWorkflowExecution({
    namespace,
    workflowExecution: { workflowId: handle.workflowId, runId: handle.firstExecutionRunId },
    reason: 'probe',
    workflowTaskFinishEventId: updateTask!.eventId,
    requestId: randomUUID(),
  });
  const reset = client.workflow.getHandle(handle.workflowId, runId ?? undefined);
  await waitUntil('the new run answers the reapplied Update', async () =>
    (await typesOf(reset)).includes(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED),
  );
  const history = await reset.fetchHistory();
  await reset.terminate('probe done');
  return history;
}

const replay = (history: temporal.api.history.v1.IHistory) =>
  Worker.runReplayHistory({ workflowBundle: { codePath: bundlePath } }, history);

test('a loop that reacts after its wait, reset across an Update and a signal: the new run does not replay', async () => {
  const history = await historyAfterReset('reactsAfterItsWait', true);
  expect(reapplied(history)).toEqual(['UPDATE_ADMITTED', 'SIGNALED']);
  await expect(replay(history)).rejects.toBeInstanceOf(DeterminismViolationError);
});

test('the same reset across the Update alone: the new run replays', async () => {
  const history = await historyAfterReset('reactsAfterItsWait', false);
  expect(reapplied(history)).toEqual(['UPDATE_ADMITTED']);
  await expect(replay(history)).resolves.toBeUndefined();
});

test("a loop that reacts on every pass, as the journey's, reset across the Update and the signal: the new run replays", async () => {
  const history = await historyAfterReset('reactsOnEveryPass', true);
  expect(reapplied(history)).toEqual(['UPDATE_ADMITTED', 'SIGNALED']);
  await expect(replay(history)).resolves.toBeUndefined();
});
