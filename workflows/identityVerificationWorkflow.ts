/**
 * Identity verification of one person (spec §4.4, §4.5, §6.6): adopt an open request found through
 * the list call, or create one; wait, under a deadline, for IdentityVerification.Completed or
 * .Expired (or the provider's record, when reconciliation finds the webhook lost); Approved
 * completes, Declined needs attention, ResubmissionRequested starts a new request up to a limit.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import type { IdvVerificationStatus } from '../provider';
import { defaultDeadlines } from '../client/deadlines';
import { polledRecord, sentData } from './deliveryData';
import type { ResourceDelivery } from '../client/resourceMessages';
import { providerActivities } from './providerActivities';
import { failingOnProviderError } from './providerFailure';
import { createResourceInbox } from './resourceInbox';
import { trackStep } from './stepStatus';
import { stepStatusQuery, type StepStatus } from '../client/stepMessages';
import { lastEventOf } from './lastEvent';

export interface IdentityVerificationInput {
  personId: string;
  caseId?: string;
  /** How long the applicant has for each request. */
  deadline?: Duration;
  /** New requests after ResubmissionRequested, at most (default 2). */
  maxResubmissions?: number;
  /** Adopt an open (Pending) request of this person instead of creating one (default true). */
  adoptOpenRequest?: boolean;
  reconcileAfter?: Duration;
  /** Set by the journey: the key under which this step reports to it. */
  stepKey?: string;
  /** How long each provider call is retried before the step fails. */
  callBudget?: Duration;
}

export interface IdentityVerificationDetail {
  personId: string;
  verificationStatus: IdvVerificationStatus | null;
  requests: string[];
}

export type IdentityVerificationStatus = StepStatus<IdentityVerificationDetail>;
/** The step's `status` query (shared by every step). */
export const identityVerificationStatusQuery = stepStatusQuery as import('@temporalio/common').QueryDefinition<IdentityVerificationStatus>;

type Outcome = { kind: 'completed'; resultLink?: string; verificationStatus?: IdvVerificationStatus } | { kind: 'expired' };

/** What an event (or a polled record) says about the request, if it settles it. */
function outcomeOf(delivery: ResourceDelivery): Outcome | undefined {
  const record = polledRecord<'idv'>(delivery);
  if (record) {
    if (record.status === 'Expired') return { kind: 'expired' };
    if (record.status === 'Completed') return { kind: 'completed', verificationStatus: record.verification_status ?? undefined };
    return undefined;
  }
  const completed = sentData(delivery, 'IdentityVerification.Completed');
  if (completed) return { kind: 'completed', resultLink: completed.identity_request.identity_result_endpoint };
  if (sentData(delivery, 'IdentityVerification.Expired')) return { kind: 'expired' };
  return undefined;
}

export async function identityVerificationWorkflow(input: IdentityVerificationInput): Promise<IdentityVerificationStatus> {
  const detail: IdentityVerificationDetail = { personId: input.personId, verificationStatus: null, requests: [] };
  const { status, update, finish } = trackStep<IdentityVerificationDetail>(input.stepKey);
  update({ detail });
  // Only events of the request this attempt waits for settle it: an earlier request's never do.
  const current: { requestId: string | null; outcome?: Outcome } = { requestId: null };
  const inbox = createResourceInbox((resource, delivery) => {
    if (resource.kind !== 'idv' || resource.id !== current.requestId) return;
    update({ lastEvent: lastEventOf(delivery) });
    current.outcome ??= outcomeOf(delivery);
  });
  const provider = providerActivities(input.callBudget);
  const maxResubmissions = input.maxResubmissions ?? 2;
  const deadline = input.deadline ?? defaultDeadlines.identityVerification;

  const reconcileAfter = input.reconcileAfter ?? defaultDeadlines.reconcileAfter;

  return failingOnProviderError(finish, async () => {
    for (let attempt = 0; ; attempt++) {
      const adopt = attempt === 0 && (input.adoptOpenRequest ?? true);
      // Find or create, and subscribe, in one activity.
      const request = await provider.openIdentityVerificationRequest({ personId: input.personId, adoptOpenRequest: adopt, subscription: inbox.subscription(reconcileAfter) });
      Object.assign(current, { requestId: request.request_id, outcome: undefined });
      detail.requests.push(request.request_id);
      update({ state: 'waiting', providerIds: { ...status.providerIds, request_id: request.request_id }, links: { identity_link: request.identity_link }, detail });
      // Events that arrived before we subscribed were replayed by the subscription.
      for (const earlier of inbox.of({ kind: 'idv', id: request.request_id })) current.outcome ??= outcomeOf(earlier);

      if (!(await condition(() => current.outcome !== undefined, deadline))) {
        return finish('expired', `no outcome for request ${request.request_id} within ${String(deadline)}, nor from the provider when asked`);
      }
      const settled = current.outcome as Outcome;
      if (settled.kind === 'expired') {
        detail.verificationStatus = 'NotCompleted';
        return finish('expired', 'the applicant did not complete the check before the link expired', detail);
      }
      update({ state: 'running' });
      const read = settled.resultLink ? { link: settled.resultLink } : { requestId: request.request_id };
      const result = await provider.getIdentityVerificationResult({ ...read, caseId: input.caseId });
      detail.verificationStatus = result.verification_status;
      switch (result.verification_status) {
        case 'Approved':
          return finish('completed', null, detail);
        case 'Declined':
          return finish('needs_attention', 'the provider declined the identity verification', detail);
        case 'ResubmissionRequested':
          if (attempt >= maxResubmissions) {
            return finish('needs_attention', `the provider asked for resubmission again after ${maxResubmissions} new requests (the limit)`, detail);
          }
          update({ reason: `resubmission requested; new request ${attempt + 1} of ${maxResubmissions}`, detail });
          continue;
        default:
          return finish('failed', `the result endpoint reported verification_status ${String(result.verification_status)}`, detail);
      }
    }
  });
}
