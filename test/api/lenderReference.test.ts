/**
 * The lender's own reference for a case (its application id), given at start, against a running
 * stack: every event the LOS receives for the case carries it (the journey's own events and those
 * derived from the case file: reminders, an expired step, a missed SLA, operator actions), the case
 * API shows it on the case and in the list, and `journey list --reference` finds the case by it. A
 * case started without one has none in its events, and null in the API.
 */
import { randomBytes } from 'node:crypto';
import type { Company } from '../../simulator/store';
import { startStack, type Stack } from '../../cli/stack';
import { journeyProgram, type Outcome, type Run } from '../../cli/journeyProgram';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { startTestLos, type TestLos } from '../support/testLos';
import { waitUntil } from '../support/waitUntil';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let stack: Stack;
let los: TestLos;
let api: ReturnType<typeof caseApiClient>;

beforeAll(async () => {
  los = await startTestLos(secret);
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3636,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: los.url, secret, timeoutMs: 5_000, sweepIntervalMs: 200 },
  });
  los.connect(stack.caseApi.url, stack.caseApiKeys!.operator);
  api = caseApiClient(stack.caseApi.url);
});

afterAll(async () => {
  await stack?.stop();
  await los?.close();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const company = async (name: string) => ({
  company_id: ((await control('/companies')) as Company[]).find((c) => c.company_name === name)!.company_id,
});
const takenOf = (caseId: string) => los.taken.filter((t) => t.event.data.caseId === caseId).map((t) => t.event);
const waitForEvent = (caseId: string, type: string) =>
  waitUntil(`${type} of ${caseId}`, () => takenOf(caseId).find((e) => e.type === type), { timeoutMs: 30_000 });
const readCase = (caseId: string) => api('GET', `/v1/cases/${caseId}`, { key: stack.caseApiKeys!.origination });

/** `journey <args> --json` through the CLI's own code, on the stack's client and case file. */
async function journeyJson(...args: string[]): Promise<unknown> {
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', ...args], { from: 'user' });
  const outcome: Outcome = await (run as Run)(
    { client: stack.client, taskQueue: stack.temporal.taskQueue, caseFile: async () => stack.caseFile },
    { json: true, print: () => undefined, progress: () => undefined },
  );
  expect(outcome.failed).toBeFalsy();
  return outcome.json;
}

test('every event of a case started with a reference carries it; the API shows it; the CLI finds the case by it', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const reference = `APP-${randomBytes(4).toString('hex')}`;
  const started = await los.api.POST('/v1/cases', {
    body: {
      caseId,
      reference,
      company: await company('Ambiguous Foods Ltd'),
      people: [{ personId }],
      steps: { creditReport: true, identityVerification: true },
      deadlines: { picklist: '5 minutes', identityVerification: '5 minutes' },
      notifications: { applicantActionDueAfter: '1 s', applicantActionDueEvery: '1 s', attentionSla: '1 s' },
    },
  });
  expect(started.response.status).toBe(201);

  // The API: on the case, and in the list by the reference.
  const waiting = await eventually(
    () => readCase(caseId),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
  expect(waiting.body.reference).toBe(reference);
  const listed = await api('GET', `/v1/cases?reference=${reference}`, { key: stack.caseApiKeys!.origination });
  expect(listed.body.cases).toEqual([expect.objectContaining({ caseId, reference })]);

  // The CLI: `journey list --reference` finds the case, and `journey status` shows the reference.
  expect(await journeyJson('list', '--reference', reference)).toEqual([expect.objectContaining({ caseId, reference })]);
  expect(await journeyJson('list', '--reference', `${reference}-other`)).toEqual([]);
  expect(await journeyJson('status', caseId)).toMatchObject({ caseId, reference });

  // Events derived from the case file: a reminder to the applicant, an operator's action.
  await waitForEvent(caseId, 'case.applicant_action_due');
  const providerId = waiting.body.steps['credit-report'].picklist[0].provider_id as string;
  const resolved = await los.api.POST('/v1/cases/{caseId}/picklist', {
    params: { path: { caseId } },
    body: { providerId },
  });
  expect(resolved.response.status).toBe(200);
  await waitForEvent(caseId, 'case.operator_action');
  // The journey's own.
  await waitForEvent(caseId, 'case.step_completed');

  // The provider expires the identity verification: an expired step, the case needs attention, past its SLA.
  const idv = `identity-verification/${personId}`;
  const read = await readCase(caseId);
  await control(`/identity-verifications/${read.body.steps[idv].providerIds.request_id}/expire`, {});
  for (const type of ['case.step_expired', 'case.needs_attention', 'case.sla_breached'])
    await waitForEvent(caseId, type);
  await los.api.POST('/v1/cases/{caseId}/cancel', { params: { path: { caseId } }, body: {} });
  await waitForEvent(caseId, 'case.cancelled');

  const events = takenOf(caseId);
  expect(new Set(events.map((e) => e.type))).toEqual(
    new Set([
      'case.applicant_action_due',
      'case.operator_action',
      'case.step_completed',
      'case.step_expired',
      'case.needs_attention',
      'case.sla_breached',
      'case.cancelled',
    ]),
  );
  expect(events.filter((e) => e.data.reference !== reference)).toEqual([]);
});

test('a case started without a reference has none in its events, and null in the API', async () => {
  const caseId = (await control('/cases', {})).case_id as string;
  const started = await los.api.POST('/v1/cases', {
    body: { caseId, company: await company('Acme Widgets Ltd'), steps: { creditReport: true } },
  });
  expect(started.response.status).toBe(201);
  await waitForEvent(caseId, 'case.completed');
  const events = takenOf(caseId);
  expect(events.filter((e) => 'reference' in e.data)).toEqual([]);
  expect((await readCase(caseId)).body.reference).toBeNull();
});
