/**
 * What the case API accepts when a case starts, and what it refuses, over real HTTP against a
 * running stack: the steps asked for, a repeated start, the body's form and media type, the ids the
 * provider must know, the lender's reference, a repeated operator action, and a case that has
 * closed in all but name. Each refusal has the code docs/integration.md lists for it.
 */
import type { Company } from '../../simulator/store';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';
import { whereItStands } from '../support/whereItStands';
import { journeyWorkflowId, type JourneyStatus } from '../../client/journeyMessages';

let stack: Stack;
let receiver: WebhookReceiver;
let api: ReturnType<typeof caseApiClient>;
let operator: string;
let origination: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 5101,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: receiver.url, secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`, timeoutMs: 2_000 },
  });
  api = caseApiClient(stack.caseApi.url);
  operator = stack.caseApiKeys!.operator;
  origination = stack.caseApiKeys!.origination;
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const readCase = (caseId: string) => api('GET', `/v1/cases/${caseId}`, { key: origination });
const start = (body: unknown) => api('POST', '/v1/cases', { key: origination, body });
const newCase = async () => (await control('/cases', {})).case_id as string;
const company = async (name: string) => ({
  company_id: ((await control('/companies')) as Company[]).find((c) => c.company_name === name)!.company_id,
});

/**
 * Cancels a case and waits until it reads cancelled; if it does not, says where it stands in
 * Temporal. A cancel waits for a creating call to answer: on a loaded machine an attempt can time
 * out on its heartbeat, and the next one waits out the call's time in flight before it looks
 * (activities/purchaseGuard.ts), so the wait allows for that.
 */
async function cancelled(caseId: string) {
  expect(await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} })).toMatchObject({ status: 202 });
  try {
    await eventually(
      () => readCase(caseId),
      (r) => r.body.state === 'cancelled',
      90_000,
    );
  } catch (error) {
    const steps = (await readCase(caseId)).body.steps as JourneyStatus['steps'];
    throw new Error(
      `${String(error)}\nwhere it stands: ${await whereItStands(stack.client, journeyWorkflowId(caseId), { steps })}`,
      { cause: error },
    );
  }
}

/** A case whose credit report waits for an operator's picklist choice. */
async function picklistInput() {
  return {
    caseId: await newCase(),
    company: await company('Ambiguous Foods Ltd'),
    steps: { creditReport: true },
    deadlines: { picklist: '30 seconds' },
  };
}

test('a step name that is no step is a 422 naming it and the steps there are; a case asking for no step is a 422', async () => {
  const caseId = await newCase();
  const typo = await start({ caseId, company: await company('Acme Widgets Ltd'), steps: { creditreport: true } });
  expect(typo).toMatchObject({ status: 422, body: { error: 'unknown_step' } });
  expect(typo.body.message).toContain('"creditreport"');
  expect(typo.body.message).toContain('creditReport, identityVerification, banking, documents');
  for (const steps of [{}, { creditReport: false, affordability: false }, { documents: [] }]) {
    const none = await start({ caseId, steps });
    expect({ steps, status: none.status, error: none.body.error }).toEqual({ steps, status: 422, error: 'no_step' });
  }
  // Nothing started.
  expect((await readCase(caseId)).status).toBe(404);
});

test('a repeated start answers as the first; another input is a 409 naming the fields that differ; a closed case too', async () => {
  const input = await picklistInput();
  expect((await start(input)).status).toBe(201);
  // The same request, its fields in another order and its defaults spelt out: the same start.
  const again = await start({ ...input, steps: { identityVerification: false, creditReport: true } });
  expect(again).toMatchObject({ status: 200, body: { caseId: input.caseId, created: false } });

  const changed = await start({ ...input, steps: { creditReport: true, incomeEmployer: true }, reference: 'APP-1' });
  expect(changed).toMatchObject({ status: 409, body: { error: 'start_conflict' } });
  expect(changed.body.message).toContain('the fields that differ: reference, steps.incomeEmployer');

  await cancelled(input.caseId);
  expect(await start(input)).toMatchObject({ status: 200, body: { created: false } });
  const corrected = await start({ ...input, steps: { creditReport: true, incomeEmployer: true } });
  expect(corrected).toMatchObject({ status: 409, body: { error: 'case_closed' } });
  expect(corrected.body.message).toContain('steps.incomeEmployer');
  expect(corrected.body.message).toContain(`journey retry ${input.caseId}`);
}, 150_000);

test('a body that is not JSON is 400 invalid_request; JSON sent as a form or as text is 415 and starts nothing', async () => {
  const input = await picklistInput();
  const send = (contentType: string, body: string) =>
    fetch(`${stack.caseApi.url}/v1/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${origination}`, 'content-type': contentType },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: string; message: string } }));
  expect(await send('application/json', '{"caseId": ')).toMatchObject({
    status: 400,
    body: { error: 'invalid_request', message: 'The body is not valid JSON' },
  });
  for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
    expect({ type, ...(await send(type, JSON.stringify(input))) }).toMatchObject({
      type,
      status: 415,
      body: { error: 'unsupported_media_type' },
    });
  }
  expect((await readCase(input.caseId)).status).toBe(404);
  // An operator action too.
  const cancel = await fetch(`${stack.caseApi.url}/v1/cases/${input.caseId}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'reason=x',
  });
  expect(cancel.status).toBe(415);
});

test("a person the provider does not know is a 422 naming the id before anything starts; the lender's reference finds the case", async () => {
  const caseId = await newCase();
  const personId = (await control('/persons', {})).person_id as string;
  const people = [{ personId }, { personId: 'no-such-person' }];
  const unknown = await start({ caseId, people, steps: { identityVerification: true } });
  expect(unknown).toMatchObject({ status: 422, body: { error: 'unknown_provider_id' } });
  expect(unknown.body.message).toContain('"no-such-person"');
  expect(unknown.body.message).not.toContain(personId);
  expect((await readCase(caseId)).status).toBe(404);

  const reference = `APP-${caseId}`;
  const started = await start({ caseId, reference, people: [{ personId }], steps: { identityVerification: true } });
  expect(started.status).toBe(201);
  const listed = await eventually(
    () => api('GET', `/v1/cases?reference=${reference}`, { key: origination }),
    (r) => r.body.cases?.length === 1,
  );
  expect(listed.body.cases[0]).toMatchObject({ caseId });
  await api('POST', `/v1/cases/${caseId}/cancel`, { key: operator, body: {} });
});

test('an operator action repeated with the same Idempotency-Key is one action: one audit entry, one event under one id', async () => {
  // Banking waits for the applicant, so the journey still runs once the picklist is resolved.
  const input = { ...(await picklistInput()), steps: { creditReport: true, banking: 'open_banking' } };
  expect((await start(input)).status).toBe(201);
  const waiting = await eventually(
    () => readCase(input.caseId),
    (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
  );
  const providerId = waiting.body.steps['credit-report'].picklist[0].provider_id as string;
  const resolve = () =>
    api('POST', `/v1/cases/${input.caseId}/picklist`, {
      key: operator,
      body: { providerId },
      headers: { 'Idempotency-Key': 'choose-once' },
    });
  const first = await resolve();
  expect(first.status).toBe(200);
  expect((await resolve()).body).toEqual(first.body);

  const timeline = await api('GET', `/v1/cases/${input.caseId}/timeline`, { key: origination });
  const actions = timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action');
  expect(actions).toEqual([
    expect.objectContaining({ action: 'resolvePicklist', requestId: 'resolve-picklist/choose-once' }),
  ]);
  const events = await eventually(
    () => api('GET', `/v1/cases/${input.caseId}/events`, { key: origination }),
    (r) => r.body.events?.some((e: { type: string }) => e.type === 'case.operator_action'),
  );
  expect(events.body.events.filter((e: { type: string }) => e.type === 'case.operator_action')).toHaveLength(1);
  await api('POST', `/v1/cases/${input.caseId}/cancel`, { key: operator, body: {} });
});

test('an action on a case completed while its last events wait for the LOS is 409 case_closed, not an unknown step', async () => {
  receiver.respondWith(503);
  try {
    const input = {
      caseId: await newCase(),
      company: await company('Acme Widgets Ltd'),
      steps: { creditReport: true },
    };
    expect((await start(input)).status).toBe(201);
    const completed = await eventually(
      () => readCase(input.caseId),
      (r) => r.body?.state === 'completed',
    );
    // The run may still be delivering its events: whether or not it has closed, the case has.
    expect(completed.body.steps).not.toHaveProperty('banking');
    const retry = await api('POST', `/v1/cases/${input.caseId}/steps/banking/retry`, { key: operator, body: {} });
    expect(retry).toMatchObject({ status: 409, body: { error: 'case_closed' } });
    expect(retry.body.message).toContain('journey retry');
  } finally {
    receiver.respondWith(200);
  }
});
