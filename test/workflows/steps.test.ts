/**
 * Each step alone, on a real dev server with the simulator, bridge and worker; timers in seconds.
 * The steps' decisions on stubbed answers (resubmissions, declines, picklists) are in test/logic/.
 */
import type { DeliveryLogEntry } from '../../simulator/store';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { routes } from '../../activities/routes';
import { startStack, type Stack } from '../../cli/stack';
import { documentSchema, identityVerificationRequestSchema } from '../../provider';
import { waitForStatus } from '../../cli/watchStatus';
import { bankingWorkflow, type BankingDetail } from '../../workflows/bankingWorkflow';
import { documentsWorkflow, type DocumentOutcome } from '../../workflows/documentsWorkflow';
import { affordabilityWorkflow } from '../../workflows/affordabilityWorkflow';
import {
  identityVerificationWorkflow,
  type IdentityVerificationDetail,
} from '../../workflows/identityVerificationWorkflow';
import { incomeEmployerWorkflow } from '../../workflows/incomeEmployerWorkflow';
import { resourceStateQuery } from '../../client/resourceMessages';
import { stepStatusQuery } from '../../client/stepMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { storedDocument } from '../support/storedDocument';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 33,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  await stack?.stop();
});

afterEach(async () => {
  await control('/fault-rates', {}, 'PUT');
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Acts at the provider directly, as the applicant or another system would, outside any journey. */
const createRequestAtProvider = (personId: string) =>
  stack.provider.call({
    route: routes.createIdentityVerification,
    params: { personId },
    body: {},
    schema: identityVerificationRequestSchema,
  });
const uploadAtProvider = (caseId: string, file_name: string, text: string) =>
  stack.provider.call({
    route: routes.uploadDocument,
    body: { entity_type: 'case', entity_id: caseId, file_name, content_base64: b64(text) },
    schema: documentSchema,
  });
const start = <A extends unknown[], R>(workflow: (...args: A) => Promise<R>, ...args: A) =>
  stack.client.workflow.start(workflow, {
    workflowId: `step/${randomUUID()}`,
    taskQueue: stack.temporal.taskQueue,
    args,
  });

describe('identity verification step', () => {
  const waitingRequest = async (handle: WorkflowHandle, count: number) =>
    (
      await waitForStatus(
        handle,
        stepStatusQuery,
        (s) => s.state === 'waiting' && (s.detail as IdentityVerificationDetail | undefined)?.requests.length === count,
      )
    ).providerIds.request_id as string;

  test('an open request the journey sent is adopted rather than duplicated; one it did not send is never taken', async () => {
    const personId = (await control('/persons', {})).person_id;
    // Another case's request for the same person: not this step's to take.
    const others = await createRequestAtProvider(personId);
    const ours = await createRequestAtProvider(personId);
    const handle = await start(identityVerificationWorkflow, {
      personId,
      deadline: '20 seconds',
      knownRequests: [ours.request_id],
    });
    expect(await waitingRequest(handle, 1)).toBe(ours.request_id);
    const alone = await start(identityVerificationWorkflow, { personId, deadline: '20 seconds' });
    const made = await waitingRequest(alone, 1);
    expect([others.request_id, ours.request_id]).not.toContain(made);
    await control(`/identity-verifications/${ours.request_id}/complete`, { verification_status: 'Approved' });
    expect(await handle.result()).toMatchObject({ state: 'completed' });
    await control(`/identity-verifications/${made}/complete`, { verification_status: 'Approved' });
    expect(await alone.result()).toMatchObject({ state: 'completed' });
  });

  test('a lost webhook is recovered by asking the provider', async () => {
    const personId = (await control('/persons', {})).person_id;
    const handle = await start(identityVerificationWorkflow, {
      personId,
      deadline: '30 seconds',
      reconcileAfter: '2 seconds',
    });
    const requestId = await waitingRequest(handle, 1);
    await control('/fault-rates', { delivery_drop_rate: 1 }, 'PUT');
    const played = await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    expect(played.deliveries.map((d: DeliveryLogEntry) => d.outcome)).toEqual(['dropped']);
    const outcome = await handle.result();
    expect(outcome).toMatchObject({ state: 'completed', detail: { verificationStatus: 'Approved' } });
    const resource = await stack.client.workflow.getHandle(`resource/idv/${requestId}`).query(resourceStateQuery);
    expect(resource.events.map((e) => e.parse)).toEqual(['polled']);
  });
});

describe('banking step', () => {
  test('bank statements: an event that arrived before the step waited is not missed', async () => {
    const caseId = (await control('/cases', {})).case_id;
    await uploadAtProvider(caseId, 'october.pdf', 'BANK STATEMENT October');
    await control('/settle', {});
    const handle = await start(bankingWorkflow, { caseId, method: 'bank_statements', deadline: '20 seconds' });
    const outcome = await handle.result();
    expect(outcome).toMatchObject({
      state: 'completed',
      lastEvent: expect.objectContaining({ eventType: expect.stringMatching(/Banking|BankStatement/) }),
    });
    expect((outcome.detail as BankingDetail).accounts).toHaveLength(2);
  });

  test('a failed bank statement needs attention with the provider message', async () => {
    const caseId = (await control('/cases', {})).case_id;
    const handle = await start(bankingWorkflow, { caseId, method: 'bank_statements', deadline: '20 seconds' });
    await waitForStatus(handle, stepStatusQuery, (s) => s.state === 'waiting');
    await uploadAtProvider(caseId, 'bad.pdf', 'BANK STATEMENT CORRUPT');
    expect(await handle.result()).toMatchObject({
      state: 'needs_attention',
      reason: expect.stringMatching(/rejected|damaged/),
    });
  });
});

describe('documents step', () => {
  test('one outcome per document; parent and child deliveries count once', async () => {
    const caseId = (await control('/cases', {})).case_id;
    const handle = await start(documentsWorkflow, {
      caseId,
      deadline: '20 seconds',
      documents: [
        await storedDocument(stack.caseFile, caseId, 'payslip.pdf', 'PAYSLIP March'),
        await storedDocument(stack.caseFile, caseId, 'sa302.pdf', 'anything', 'SA302'),
      ],
    });
    const outcome = await handle.result();
    expect(outcome.state).toBe('completed');
    const { documents } = outcome.detail as { documents: DocumentOutcome[] };
    expect(documents.map((d) => [d.status, d.document_type])).toEqual([
      ['Complete', 'Payslip'],
      ['Complete', 'SA302'],
    ]);
    const payslip = await stack.client.workflow
      .getHandle(`resource/document/${documents[0]!.document_id}`)
      .query(resourceStateQuery);
    expect(payslip.events.map((e) => e.eventType).sort()).toEqual([
      'DocumentProcessing.Completed',
      'PayslipProcessing.Completed',
    ]);
    expect(payslip.occurrences).toBe(1);
  });
});

describe('resource workflow', () => {
  test('a subscriber that comes after the resource exists, with no events yet, still gets reconciliation', async () => {
    const personId = (await control('/persons', {})).person_id;
    const created = await createRequestAtProvider(personId);
    const resource = { kind: 'idv' as const, id: created.request_id };
    const { subscribeToResourceWorkflow } = await import('../../activities/signalResource');
    const target = { client: stack.client, taskQueue: stack.temporal.taskQueue };
    // The resource workflow exists (a first subscriber without polling), quiet.
    await subscribeToResourceWorkflow(target, resource, { workflowId: `nobody/${randomUUID()}` });
    await waitForStatus(
      stack.client.workflow.getHandle(`resource/idv/${created.request_id}`),
      resourceStateQuery,
      (s) => s.subscribers.length === 1,
    );
    // A journey adopts the open request an earlier attempt sent and subscribes later, asking for
    // reconciliation after 2 s.
    const handle = await start(identityVerificationWorkflow, {
      personId,
      deadline: '15 seconds',
      reconcileAfter: '2 seconds',
      knownRequests: [created.request_id],
    });
    await waitForStatus(
      handle,
      stepStatusQuery,
      (s) => s.state === 'waiting' && s.providerIds.request_id === created.request_id,
    );
    // The webhook is lost: only the resource workflow's poll can tell the journey.
    await control('/fault-rates', { delivery_drop_rate: 1 }, 'PUT');
    await control(`/identity-verifications/${created.request_id}/complete`, { verification_status: 'Approved' });
    expect(await handle.result()).toMatchObject({
      state: 'completed',
      providerIds: { request_id: created.request_id },
    });
  });
});

describe('insight steps', () => {
  test('affordability with its webhook lost: recovered by polling, read through the spec paths', async () => {
    await control('/fault-rates', { delivery_drop_rate: 1 }, 'PUT');
    const caseId = (await control('/cases', {})).case_id;
    const handle = await start(affordabilityWorkflow, { caseId, deadline: '20 seconds', reconcileAfter: '1 second' });
    expect(await handle.result()).toMatchObject({ state: 'completed', detail: { monthly_income: expect.any(Number) } });
  });

  test('income-and-employer with its webhook lost: recovered by polling, failure detail read', async () => {
    await control('/fault-rates', { delivery_drop_rate: 1 }, 'PUT');
    const caseId = (await control('/cases', { income_employer_outcome: 'Failed' })).case_id;
    const handle = await start(incomeEmployerWorkflow, { caseId, deadline: '20 seconds', reconcileAfter: '1 second' });
    expect(await handle.result()).toMatchObject({
      state: 'needs_attention',
      detail: { failure_detail: expect.stringMatching(/.+/) },
    });
  });
});
