/**
 * The identity verification step's decisions, with the provider's answers stubbed and its events
 * signalled as the resource workflow would: a resubmission asks for a new request up to the limit
 * and then needs attention, one then approved completes, a decline needs attention (of an earlier
 * link too, keeping the request the attempt sent), and a request with no outcome expires at the
 * deadline.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { waitForStatus } from '../../cli/watchStatus';
import { stepStatusQuery } from '../../client/stepMessages';
import type { IdvVerificationStatus } from '../../provider';
import {
  identityVerificationWorkflow,
  type IdentityVerificationDetail,
} from '../../workflows/identityVerificationWorkflow';
import { startJourneyLogic, type JourneyLogic, pendingIdvRequest } from '../support/journeyLogic';

/** What the provider answers each request's result with, set by the applicant's play below. */
const verdicts = new Map<string, IdvVerificationStatus>();
let made = 0;

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    // A new request each time; links sent earlier that are still open are named beside it.
    openIdentityVerificationRequest: async ({ personId, knownRequests }) => {
      const requestId = `idv-${++made}`;
      return { ...pendingIdvRequest(personId, requestId), also_pending: knownRequests };
    },
    getIdentityVerificationResult: async (input) => {
      const requestId = input.link?.split('/').pop() ?? input.requestId ?? '';
      return {
        case_file: null,
        checks: 0,
        request_id: requestId,
        person_id: 'person-1',
        status: 'Completed',
        verification_status: verdicts.get(requestId)!,
      };
    },
  });
});
afterAll(async () => {
  await logic?.stop();
});

type Step = WorkflowHandle<typeof identityVerificationWorkflow>;

const start = (input: Record<string, unknown> = {}): Promise<Step> =>
  logic.env.client.workflow.start(identityVerificationWorkflow, {
    workflowId: `idv/${randomUUID()}`,
    taskQueue: logic.taskQueue,
    args: [{ personId: 'person-1', deadline: '20 seconds', ...input }],
  });

/** Waits for the step's `count`-th request and has the applicant finish it with `verdict`. */
async function applicantFinishes(step: Step, count: number, verdict: IdvVerificationStatus): Promise<void> {
  const waiting = await waitForStatus(
    step,
    stepStatusQuery,
    (s) => s.state === 'waiting' && (s.detail as IdentityVerificationDetail).requests.length === count,
  );
  const requestId = waiting.providerIds.request_id!;
  verdicts.set(requestId, verdict);
  await logic.deliver(step.workflowId, { kind: 'idv', id: requestId }, 'IdentityVerification.Completed', {
    identity_request: { request_id: requestId, identity_result_endpoint: `https://provider.example/${requestId}` },
  });
}

test('ResubmissionRequested starts a new request, up to the limit, then needs attention', async () => {
  const step = await start({ maxResubmissions: 2 });
  for (let n = 1; n <= 3; n++) await applicantFinishes(step, n, 'ResubmissionRequested');
  const outcome = await step.result();
  expect(outcome).toMatchObject({
    state: 'needs_attention',
    reason: expect.stringContaining('limit'),
    detail: { verificationStatus: 'ResubmissionRequested' },
  });
  expect((outcome.detail as IdentityVerificationDetail).requests).toHaveLength(3);
});

test('a resubmission that is then approved completes', async () => {
  const step = await start();
  await applicantFinishes(step, 1, 'ResubmissionRequested');
  await applicantFinishes(step, 2, 'Approved');
  expect(await step.result()).toMatchObject({ state: 'completed', detail: { verificationStatus: 'Approved' } });
});

test('a declined verification needs attention, saying so', async () => {
  const step = await start();
  await applicantFinishes(step, 1, 'Declined');
  expect(await step.result()).toMatchObject({
    state: 'needs_attention',
    reason: 'the provider declined the identity verification',
  });
});

test('a link sent earlier that the applicant declines settles the step, which keeps the request it sent', async () => {
  const earlier = `idv-earlier-${randomUUID()}`;
  const step = await start({ knownRequests: [earlier], adoptOpenRequest: false });
  const waiting = await waitForStatus(step, stepStatusQuery, (s) => s.state === 'waiting');
  const sent = waiting.providerIds.request_id!;
  expect(sent).not.toBe(earlier);
  verdicts.set(earlier, 'Declined');
  await logic.deliver(step.workflowId, { kind: 'idv', id: earlier }, 'IdentityVerification.Completed', {
    identity_request: { request_id: earlier, identity_result_endpoint: `https://provider.example/${earlier}` },
  });
  expect(await step.result()).toMatchObject({
    state: 'needs_attention',
    needSpent: true,
    // The declined link settled it; the request this attempt bought is recorded, still open.
    providerIds: { request_id: earlier, sent_request_id: sent },
  });
});

test('a request with no outcome expires at the deadline, naming it', async () => {
  const step = await start({ deadline: '1 second' });
  const outcome = await step.result();
  expect(outcome.state).toBe('expired');
  expect(outcome.reason).toMatch(/^no outcome for request idv-\d+ within 1 second/);
});
