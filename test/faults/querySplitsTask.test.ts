/**
 * Fault suite: why nothing of ours queries a running journey. A query answered by a worker that
 * does not hold the run, while the run's next workflow task is scheduled but not started, splits
 * that task: the worker (sdk-core 1.24.0) rebuilds the run from a history that holds the task's
 * first events, answers with them applied, keeps the run, and later hands the workflow the rest of
 * the task's events in a second activation. A replay takes them in one, so the run's history no
 * longer replays. docs/reliability.md ("Journey runs that replay") tells the journey's story.
 *
 * The window, opened on purpose: worker A holds the run and is SIGKILLed. A query sent then finds
 * no task pending and goes straight to A's sticky queue, where it waits out the sticky
 * schedule-to-start timeout before Temporal sends it to the task queue and worker B, cold, takes
 * it. A signal sent while the query waits schedules a task on A's sticky queue, where that task
 * too waits out the timeout; a second signal, sent once B has answered, joins the same task.
 *
 * The probe (test/support/taskSplitProbe.ts) starts a timer on a signal seen alone and ends on two
 * seen together. The same steps without the query leave a history that replays.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { testTemporalConfig } from '../setup/testEnvironment';
import { killChildren, startChild, type Child } from '../support/faultHarness/childProcess';
import { probeBundle } from '../support/probeBundle';
import { countQuery, countSignal } from '../support/taskSplitProbe';
import { waitUntil } from '../support/waitUntil';

const EventType = temporal.api.enums.v1.EventType;
const STICKY_TIMEOUT_MS = 10_000;
/**
 * How long after the query the first signal goes: the query needs milliseconds to reach Temporal
 * and be sent to the sticky queue; the task the signal schedules then waits there for
 * STICKY_TIMEOUT_MS, so the second signal, sent when B answers the query, joins it with seconds to
 * spare on either side.
 */
const FIRST_SIGNAL_AFTER_MS = 3_000;

const { address } = testTemporalConfig();
let bundlePath: string;
let connection: Connection;
let client: Client;
let workerConnection: NativeConnection;

beforeAll(async () => {
  bundlePath = await probeBundle(require.resolve('../support/taskSplitProbe'), 'task-split');
  connection = await Connection.connect({ address });
  client = new Client({ connection });
  workerConnection = await NativeConnection.connect({ address });
});

afterAll(async () => {
  killChildren();
  await connection?.close();
  await workerConnection?.close();
});

interface Journey {
  handle: WorkflowHandle;
  workerB: Worker;
  runningB: Promise<void>;
}

/** Starts the probe on worker A, waits for A to finish its first task, kills A and starts B. */
async function probeLeftByItsWorker(): Promise<Journey> {
  const taskQueue = `task-split-${randomUUID()}`;
  const workerA: Child = await startChild(
    'test/support/taskSplitWorker.ts',
    {
      TEMPORAL_ADDRESS: address,
      TASK_QUEUE: taskQueue,
      WORKFLOW_BUNDLE: bundlePath,
      STICKY_TIMEOUT_MS: String(STICKY_TIMEOUT_MS),
    },
    'ready',
  );
  const handle = await client.workflow.start('taskSplitProbe', { taskQueue, workflowId: `task-split-${randomUUID()}` });
  await waitUntil('worker A completes the first workflow task', async () =>
    (await eventTypes(handle)).includes(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
  );
  await workerA.kill();
  const workerB = await Worker.create({
    connection: workerConnection,
    taskQueue,
    workflowBundle: { codePath: bundlePath },
  });
  return { handle, workerB, runningB: workerB.run() };
}

async function eventTypes(handle: WorkflowHandle): Promise<number[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => Number(event.eventType));
}

/** Waits until B has completed the task that took both signals, and ends the run. */
async function historyOnceBothSignalsAreTaken({ handle, workerB, runningB }: Journey) {
  const decided = (types: number[]) =>
    types.includes(EventType.EVENT_TYPE_TIMER_STARTED) ||
    types.includes(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
  await waitUntil('worker B completes the task holding both signals', async () => decided(await eventTypes(handle)), {
    timeoutMs: 4 * STICKY_TIMEOUT_MS,
  });
  const history = await handle.fetchHistory();
  if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('probe done');
  workerB.shutdown();
  await runningB;
  return history;
}

function signalsBeforeTheirTask(types: number[]): number {
  const firstSignal = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
  const startedAfter = types.indexOf(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, firstSignal);
  return types.slice(firstSignal, startedAfter).filter((t) => t === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)
    .length;
}

const replay = (history: temporal.api.history.v1.IHistory, workflowId: string) =>
  Worker.runReplayHistory({ workflowBundle: { codePath: bundlePath } }, history, workflowId);

test('without a query, one task takes both signals in one activation and the history replays', async () => {
  const journey = await probeLeftByItsWorker();
  await journey.handle.signal(countSignal);
  await journey.handle.signal(countSignal);

  const history = await historyOnceBothSignalsAreTaken(journey);
  const types = (history.events ?? []).map((event) => Number(event.eventType));
  expect(signalsBeforeTheirTask(types)).toBe(2);
  expect(types).toContain(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
  await expect(replay(history, journey.handle.workflowId)).resolves.toBeUndefined();
}, 120_000);

test('a query answered by a cold worker while a task waits splits that task, and the history does not replay', async () => {
  const journey = await probeLeftByItsWorker();
  const answer = journey.handle.query(countQuery);
  await new Promise((resolve) => setTimeout(resolve, FIRST_SIGNAL_AFTER_MS));
  await journey.handle.signal(countSignal);
  // B answers with the first signal applied, though no workflow task has taken it yet.
  expect(await answer).toBe(1);
  await journey.handle.signal(countSignal);

  const history = await historyOnceBothSignalsAreTaken(journey);
  const types = (history.events ?? []).map((event) => Number(event.eventType));
  // One task took both signals, as without the query; B ran its code on the first alone.
  expect(signalsBeforeTheirTask(types)).toBe(2);
  expect(types).toContain(EventType.EVENT_TYPE_TIMER_STARTED);
  await expect(replay(history, journey.handle.workflowId)).rejects.toBeInstanceOf(DeterminismViolationError);
}, 120_000);
