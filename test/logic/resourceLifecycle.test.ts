/**
 * A resource workflow's own life, with nothing else running: it continues as new before its history
 * grows large, keeping its log and the identities it deduplicates by, and ends after its retention
 * period of quiet.
 */
import { randomUUID } from 'node:crypto';
import { waitForStatus } from '../../cli/watchStatus';
import { deliverSignal, resourceStateQuery, type ResourceDelivery } from '../../client/resourceMessages';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic();
});
afterAll(async () => {
  await logic?.stop();
});

const delivery = (n: number): ResourceDelivery => ({
  dedupeId: `IdentityVerification.Completed|hash-${n}`,
  eventType: 'IdentityVerification.Completed',
  batchId: `batch-${n}`,
  webhookId: 'w',
  datetimeSent: new Date().toISOString(),
  receivedAt: new Date().toISOString(),
  parse: 'known',
  data: { n },
});

test('continues as new before its history grows large, keeping the log and the dedupe identities', async () => {
  const workflowId = `resource/idv/can-${randomUUID()}`;
  const handle = await logic.env.client.workflow.start(resourceWorkflow, {
    workflowId,
    taskQueue: logic.taskQueue,
    args: [{ resource: { kind: 'idv', id: workflowId }, continueAsNewAtHistoryLength: 15 }],
  });
  for (let n = 0; n < 12; n++) await handle.signal(deliverSignal, delivery(n));
  const latest = logic.env.client.workflow.getHandle(workflowId);
  await waitForStatus(latest, resourceStateQuery, (s) => s.events.length === 12);
  expect((await latest.describe()).runId).not.toBe(handle.firstExecutionRunId);
  // A delivery seen before the continue-as-new is still recognised.
  await latest.signal(deliverSignal, delivery(3));
  const state = await waitForStatus(latest, resourceStateQuery, (s) => s.duplicatesIgnored === 1);
  expect(state.events).toHaveLength(12);
  expect(state.occurrences).toBe(12);
  await latest.terminate('test done');
});

test('ends after its retention period of quiet', async () => {
  const handle = await logic.env.client.workflow.start(resourceWorkflow, {
    workflowId: `resource/idv/retention-${randomUUID()}`,
    taskQueue: logic.taskQueue,
    args: [{ resource: { kind: 'idv', id: 'retention' }, retention: '1 second' }],
  });
  expect(await handle.result()).toMatchObject({ events: [], subscribers: [] });
});
