/**
 * Identity verification of one person: create the request, subscribe to its resource workflow,
 * wait (under a deadline) for IdentityVerification.Completed or .Expired, then read the result.
 */
import type { Duration } from '@temporalio/common';
import { condition, defineQuery, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  identityVerificationCompletedSchema,
  identityVerificationExpiredSchema,
  type IdvVerificationStatus,
} from '../provider';
import { defaultDeadlines } from './deadlines';
import { resourceEventSignal, type ResourceEvent } from './messages';
import type { LastEvent, StepState } from './stepState';

export interface IdentityVerificationInput {
  personId: string;
  caseId?: string;
  /** How long to wait for the applicant; `defaultDeadlines.identityVerification` when unset. */
  deadline?: Duration;
}

export interface IdentityVerificationStatus {
  state: StepState;
  personId: string;
  requestId: string | null;
  verificationStatus: IdvVerificationStatus | null;
  lastEvent: LastEvent | null;
  reason: string | null;
}

export const identityVerificationStatusQuery = defineQuery<IdentityVerificationStatus>('status');

const provider = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

type Outcome =
  | { kind: 'completed'; resultLink: string; receivedAt: string }
  | { kind: 'expired'; receivedAt: string };

export async function identityVerificationWorkflow(input: IdentityVerificationInput): Promise<IdentityVerificationStatus> {
  const status: IdentityVerificationStatus = {
    state: 'running',
    personId: input.personId,
    requestId: null,
    verificationStatus: null,
    lastEvent: null,
    reason: null,
  };
  let outcome: Outcome | undefined;
  setHandler(identityVerificationStatusQuery, () => status);
  setHandler(resourceEventSignal, (event) => {
    const seen = readEvent(event, status.requestId);
    if (!seen) return;
    status.lastEvent = { eventType: event.delivery.eventType, receivedAt: event.delivery.receivedAt };
    outcome ??= seen;
  });

  const { workflowId } = workflowInfo();
  const request = await provider.createIdentityVerificationRequest({ personId: input.personId, idempotencyKey: workflowId });
  status.requestId = request.request_id;
  await provider.subscribeToResource({ resource: { kind: 'idv', id: request.request_id }, subscription: { workflowId } });

  status.state = 'waiting';
  const deadline = input.deadline ?? defaultDeadlines.identityVerification;
  if (!(await condition(() => outcome !== undefined, deadline))) {
    return finish(status, 'expired', `no IdentityVerification event arrived within ${String(deadline)}`);
  }
  const settled = outcome as Outcome;
  if (settled.kind === 'expired') {
    status.verificationStatus = 'NotCompleted';
    return finish(status, 'expired', 'the applicant did not complete the check before the link expired');
  }

  status.state = 'running';
  const result = await provider.getIdentityVerificationResult({ link: settled.resultLink });
  status.verificationStatus = result.verification_status;
  switch (result.verification_status) {
    case 'Approved':
      return finish(status, 'completed', null);
    case 'Declined':
      return finish(status, 'needs_attention', 'the provider declined the identity verification');
    case 'ResubmissionRequested':
      return finish(status, 'needs_attention', 'the provider asked the applicant to resubmit');
    default:
      return finish(status, 'failed', `the result endpoint reported verification_status ${String(result.verification_status)}`);
  }
}

/** The outcome an event carries, if it is about our request and is one we wait for. */
function readEvent(event: ResourceEvent, requestId: string | null): Outcome | undefined {
  if (event.resource.kind !== 'idv' || event.resource.id !== requestId) return undefined;
  const { delivery } = event;
  if (delivery.eventType === 'IdentityVerification.Completed') {
    const data = identityVerificationCompletedSchema.safeParse(delivery.data);
    if (data.success) return { kind: 'completed', resultLink: data.data.identity_request.identity_result_endpoint, receivedAt: delivery.receivedAt };
  }
  if (delivery.eventType === 'IdentityVerification.Expired') {
    if (identityVerificationExpiredSchema.safeParse(delivery.data).success) return { kind: 'expired', receivedAt: delivery.receivedAt };
  }
  return undefined;
}

function finish(status: IdentityVerificationStatus, state: StepState, reason: string | null): IdentityVerificationStatus {
  status.state = state;
  status.reason = reason;
  return { ...status };
}
