/**
 * Journey events reach the LOS: signed in the Standard Webhooks format (verified with the
 * `standardwebhooks` package), each change once, and every one of them after an outage of the
 * receiver (Temporal retries the activity).
 */
import type { Company } from '../../simulator/store';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, retryStepUpdate } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhookReceiver';
import { startOnboardCase } from '../support/startOnboardCase';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let stack: Stack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1202,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: receiver.url, secret, timeoutMs: 5_000 },
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const fast = { identityVerification: '30 seconds', banking: '30 seconds', picklist: '30 seconds' };

/** Verified deliveries of one case (a failed verification throws: nothing unsigned may arrive). */
function eventsOf(caseId: string, received: ReceivedDelivery[] = receiver.received) {
  const webhook = new Webhook(secret);
  return received
    .filter((d) => d.body?.data?.caseId === caseId)
    .map((d) => ({
      id: d.headers['webhook-id'] as string,
      ...(webhook.verify(d.raw, d.headers as Record<string, string>) as {
        type: string;
        data: { sequence: number; step?: { key: string; attempt: number }; state: string };
      }),
    }));
}

const label = (e: ReturnType<typeof eventsOf>[number]) =>
  e.data.step ? `${e.type} ${e.data.step.key}@${e.data.step.attempt}` : e.type;

test('each change of a journey reaches the LOS once, signed, with an id derived from the run and its sequence', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ caseId, people: [{ personId }], steps: { identityVerification: true }, deadlines: fast }],
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idv]?.state === 'waiting');
  await control(`/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/expire`, {});
  await waitForStatus(handle, journeyStatusQuery, (s) => s.operatorDeadline != null);
  await handle.executeUpdate(retryStepUpdate, { args: [{ step: idv }] });
  const again = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[idv]?.state === 'waiting' && s.steps[idv]!.attempt === 2,
  );
  await control(`/identity-verifications/${again.steps[idv]!.providerIds.request_id}/complete`, {
    verification_status: 'Approved',
  });
  const result = await handle.result();
  expect(result.state).toBe('completed');

  // The journey waits for its last event before it closes, so everything has arrived by now. Sent in
  // parallel, they may arrive in any order: their sequence orders them.
  const events = eventsOf(caseId).sort((a, b) => a.data.sequence - b.data.sequence);
  expect(events.map(label)).toEqual(['case.needs_attention', `case.step_completed ${idv}@2`, 'case.completed']);
  expect(events.map((e) => e.data.sequence)).toEqual([1, 2, 3]);
  expect(new Set(events.map((e) => e.id)).size).toBe(3);
  for (const e of events) expect(e.id).toMatch(/^evt_[0-9a-f]{32}$/);

  // What the LOS took is on the case's timeline, each with the sequence it was sent in.
  const timeline = await stack.caseFile.timeline(caseId);
  const sent = timeline
    .filter((e) => e.kind === 'notification')
    .map((e) => (e.kind === 'notification' ? [e.type, e.step, e.sequence] : []))
    .sort((a, b) => Number(a[2]) - Number(b[2]));
  expect(sent).toEqual([
    ['case.needs_attention', null, 1],
    ['case.step_completed', idv, 2],
    ['case.completed', null, 3],
  ]);
});

test('while the LOS is down, events are retried, and every one arrives once it is back', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  receiver.respondWith(503);
  try {
    const handle = await startOnboardCase(stack.client, {
      workflowId: `case/${caseId}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true }, deadlines: fast }],
    });
    await waitForStatus(handle, journeyStatusQuery, (s) => s.state === 'needs_attention');
    // Refused at least twice: the activity is being retried, not given up.
    await eventually(
      async () => eventsOf(caseId).length,
      (n) => n >= 2,
    );
    await stack.client.workflow.getHandle(`case/${caseId}`).signal('cancel', { reason: 'duplicate application' });
    await eventually(
      async () => eventsOf(caseId).filter((e) => e.type === 'case.cancelled').length,
      (n) => n >= 1,
    );
  } finally {
    receiver.respondWith(200);
  }
  // The journey closes only once its events are delivered.
  const closed = await stack.client.workflow.getHandle(`case/${caseId}`).result();
  expect(closed.state).toBe('cancelled');
  // Every event was refused at least once and then delivered: the ids the receiver saw, deduped.
  const byId = new Map(eventsOf(caseId).map((e) => [e.id, e]));
  expect([...byId.values()].sort((a, b) => a.data.sequence - b.data.sequence).map(label)).toEqual([
    'case.needs_attention',
    'case.cancelled',
  ]);
  expect(eventsOf(caseId).length).toBeGreaterThan(byId.size);
});
