/**
 * A test LOS, written with the generated client (packages/case-api-client) and the
 * `standardwebhooks` package, against real journeys: it receives every event it acts on
 * (reminders to the applicant, an expired step, a missed SLA, an operator's action, besides the
 * journey's own), each verified and taken once by its `webhook-id`, and after an outage it
 * recovers from the events endpoint what it missed. Reminder and SLA times are shortened in the
 * start request; the worker sweeps every 200 ms.
 */
import { randomBytes } from 'node:crypto';
import { startStack, type Stack } from '../../cli/stack';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startTestLos, type TestLos } from '../support/testLos';
import { waitUntil } from '../support/waitUntil';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let stack: Stack;
let los: TestLos;

beforeAll(async () => {
  los = await startTestLos(secret);
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 2323,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: los.url, secret, timeoutMs: 5_000, sweepIntervalMs: 200 },
  });
  los.connect(stack.caseApi.url, stack.caseApiKeys!.operator);
});

afterAll(async () => {
  await stack?.stop();
  await los?.close();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const takenOf = (caseId: string, type?: string) =>
  los.taken.filter((t) => t.event.data.caseId === caseId && (type === undefined || t.event.type === type));
const waitForEvent = (caseId: string, type: string, count = 1) =>
  waitUntil(`${count} ${type} of ${caseId}`, () => takenOf(caseId, type).length >= count && takenOf(caseId, type), {
    timeoutMs: 30_000,
  });

test('the LOS receives every event it acts on from a real journey, once each, and recovers what it missed while down', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const idv = `identity-verification/${personId}`;
  const started = await los.api.POST('/v1/cases', {
    body: {
      caseId,
      people: [{ personId, name: 'Ada Lovelace' }],
      steps: { identityVerification: true },
      deadlines: { identityVerification: '5 minutes' },
      notifications: { applicantActionDueAfter: '1 s', applicantActionDueEvery: '1 s', attentionSla: '1 s' },
    },
  });
  expect(started.response.status).toBe(201);

  // The applicant does not act: reminders come, numbered, for the step's first attempt (a sweep
  // that runs late on a loaded machine sends the reminder due then: numbers rise, and may skip).
  const reminders = (await waitForEvent(caseId, 'case.applicant_action_due', 2))
    .slice(0, 2)
    .map((t) => t.event.type === 'case.applicant_action_due' && t.event.data);
  expect(reminders.map((r) => r && [r.step.key, r.step.attempt])).toEqual([
    [idv, 1],
    [idv, 1],
  ]);
  const [first, second] = reminders.map((r) => (r ? r.reminder : 0));
  expect(second!).toBeGreaterThan(first!);

  // The provider expires the request: the step expired, the case needs attention, then past its SLA.
  const read = await los.api.GET('/v1/cases/{caseId}', { params: { path: { caseId } } });
  const requestId = read.data!.steps[idv]!.providerIds.request_id!;
  await control(`/identity-verifications/${requestId}/expire`, {});
  const [expired] = await waitForEvent(caseId, 'case.step_expired');
  expect(expired!.event.data).toMatchObject({ caseId, step: { key: idv, attempt: 1 } });
  await waitForEvent(caseId, 'case.needs_attention');
  const [breached] = await waitForEvent(caseId, 'case.sla_breached');
  expect(breached!.event.data).toMatchObject({ caseId, slaMs: 1_000 });

  // The LOS goes down; meanwhile an operator retries the step.
  los.down();
  const retried = await los.api.POST('/v1/cases/{caseId}/steps/{step}/retry', {
    params: { path: { caseId, step: idv } },
    body: { reason: 'Ada asked for a new link' },
  });
  expect(retried.response.status).toBe(200);
  await waitUntil('the operator action refused while the LOS is down', () => los.refusedWhileDown > 0);

  // Back up, it reads the events it missed from the events endpoint, by id.
  const recovered = await los.up([caseId]);
  const action = recovered.find((t) => t.event.type === 'case.operator_action');
  expect(action?.event.data).toMatchObject({ caseId, actor: 'embedded-operator', action: 'retryStep', step: idv });
  // No personal data: the reason named the applicant, the event does not carry it.
  expect(JSON.stringify(action)).not.toContain('Ada');

  // The new attempt is completed by the applicant; the journey completes.
  const again = await waitUntil('attempt 2 waiting', async () => {
    const { data } = await los.api.GET('/v1/cases/{caseId}', { params: { path: { caseId } } });
    const step = data?.steps[idv];
    return step?.attempt === 2 && step.state === 'waiting' && step.providerIds.request_id;
  });
  await control(`/identity-verifications/${again}/complete`, { verification_status: 'Approved' });
  await waitForEvent(caseId, 'case.completed');

  // Every type arrived, each id once, every body versioned; the retries of what was recovered were
  // taken as duplicates. Events are sent side by side (the LOS orders them by `data.sequence`), so
  // the last step's `case.step_completed` may arrive just after `case.completed`.
  const expected = [
    'case.applicant_action_due',
    'case.step_expired',
    'case.sla_breached',
    'case.operator_action',
    'case.needs_attention',
    'case.step_completed',
    'case.completed',
  ];
  const types = () => new Set<string>(takenOf(caseId).map((t) => t.event.type));
  await waitUntil('every event type taken', () => expected.every((type) => types().has(type)), {
    timeoutMs: 15_000,
  }).catch(() => undefined);
  for (const type of expected) expect(types()).toContain(type);
  const ids = takenOf(caseId).map((t) => t.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const t of takenOf(caseId)) expect(t.event.version).toBe(1);
  await waitUntil('a redelivery of a recovered event deduped', () => los.duplicates > 0);

  // The events endpoint lists exactly what the LOS took, with the same ids.
  const listed = await los.api.GET('/v1/cases/{caseId}/events', { params: { path: { caseId } } });
  expect(new Set(listed.data!.events.map((e: { id: string }) => e.id))).toEqual(new Set(ids));
});
