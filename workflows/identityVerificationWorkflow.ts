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
import { keyed, type Purchasing } from './purchase';
import { trackStep } from './stepStatus';
import { stepStatusQuery, type StepStatus } from '../client/stepMessages';
import { lastEventOf } from './lastEvent';

export interface IdentityVerificationInput extends Purchasing {
  personId: string;
  /**
   * Requests the journey already sent this person whose need is not spent: one the applicant
   * completed meanwhile settles the step, one still Pending is adopted, and with a fresh request
   * the applicant may still complete any of them.
   */
  knownRequests?: string[];
  caseId?: string;
  /** How long the applicant has for each request. */
  deadline?: Duration;
  /** New requests after ResubmissionRequested, at most (default 2). */
  maxResubmissions?: number;
  /**
   * Adopt an open (Pending) request of this person instead of creating one (default true; false
   * when an operator asked for a fresh one).
   */
  adoptOpenRequest?: boolean;
  reconcileAfter?: Duration;
  /** The longest wait between two polls that find nothing (deadlines.ts). */
  reconcileBackoffCap?: Duration;
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
export const identityVerificationStatusQuery =
  stepStatusQuery as import('@temporalio/common').QueryDefinition<IdentityVerificationStatus>;

type Outcome =
  { kind: 'completed'; resultLink?: string; verificationStatus?: IdvVerificationStatus } | { kind: 'expired' };

/** What an event (or a polled record) says about the request, if it settles it. */
function outcomeOf(delivery: ResourceDelivery): Outcome | undefined {
  const record = polledRecord<'idv'>(delivery);
  if (record) {
    if (record.status === 'Expired') return { kind: 'expired' };
    if (record.status === 'Completed')
      return { kind: 'completed', verificationStatus: record.verification_status ?? undefined };
    return undefined;
  }
  const completed = sentData(delivery, 'IdentityVerification.Completed');
  if (completed) return { kind: 'completed', resultLink: completed.identity_request.identity_result_endpoint };
  if (sentData(delivery, 'IdentityVerification.Expired')) return { kind: 'expired' };
  return undefined;
}

export async function identityVerificationWorkflow(
  input: IdentityVerificationInput,
): Promise<IdentityVerificationStatus> {
  const detail: IdentityVerificationDetail = { personId: input.personId, verificationStatus: null, requests: [] };
  const tracker = trackStep<IdentityVerificationDetail>(input.stepKey);
  const { status, update, finish, spend, providerAnswered } = tracker;
  update({ detail });
  // Only events of the requests this attempt waits for settle it: the current one, and links sent
  // earlier that are still open (the applicant may complete any); a superseded request's never do.
  const current: { requestId: string | null; open: string[]; outcome?: Outcome & { requestId: string } } = {
    requestId: null,
    open: [],
  };
  const consider = (requestId: string, delivery: ResourceDelivery) => {
    const outcome = outcomeOf(delivery);
    // An earlier link that expired does not end the wait for the current one.
    if (outcome && (requestId === current.requestId || outcome.kind === 'completed'))
      current.outcome ??= { ...outcome, requestId };
  };
  const provider = providerActivities(input.callBudget, providerAnswered);
  const maxResubmissions = input.maxResubmissions ?? 2;
  const deadline = input.deadline ?? defaultDeadlines.identityVerification;

  const reconcileAfter = input.reconcileAfter ?? defaultDeadlines.reconcileAfter;

  return failingOnProviderError(tracker, async (inboxes) => {
    const inbox = inboxes.create((resource, delivery) => {
      if (resource.kind !== 'idv' || !current.open.includes(resource.id)) return;
      update({ lastEvent: lastEventOf(delivery) });
      consider(resource.id, delivery);
    });
    for (let attempt = 0; ; attempt++) {
      const first = attempt === 0;
      const adopt = first && (input.adoptOpenRequest ?? true);
      // Find or create, and subscribe, in one activity.
      const request = await provider.openIdentityVerificationRequest({
        personId: input.personId,
        adoptOpenRequest: adopt,
        knownRequests: first ? input.knownRequests : undefined,
        ...keyed(input, first ? 'request' : `resubmission-${attempt}`),
        subscription: inbox.subscription(reconcileAfter, input.reconcileBackoffCap),
      });
      Object.assign(current, {
        requestId: request.request_id,
        open: [request.request_id, ...(request.also_pending ?? [])],
        outcome: undefined,
      });
      for (const id of current.open) inbox.track({ kind: 'idv', id });
      detail.requests.push(request.request_id);
      update({
        state: 'waiting',
        providerIds: { ...status.providerIds, request_id: request.request_id },
        links: { identity_link: request.identity_link },
        detail,
      });
      // Events that arrived before we subscribed were replayed by the subscription.
      for (const id of current.open) for (const earlier of inbox.of({ kind: 'idv', id })) consider(id, earlier);
      // A link the applicant completed after an earlier attempt ended: its result settles this one.
      if (request.status === 'Completed') current.outcome ??= { kind: 'completed', requestId: request.request_id };

      if (!(await condition(() => current.outcome !== undefined, deadline))) {
        // The request may still be Pending: the next attempt adopts it (the need is not spent).
        return finish(
          'expired',
          `no outcome for request ${request.request_id} within ${String(deadline)}, nor from the provider when asked`,
        );
      }
      const settled = current.outcome as Outcome & { requestId: string };
      if (settled.kind === 'expired') {
        detail.verificationStatus = 'NotCompleted';
        spend();
        return finish('expired', 'the applicant did not complete the check before the link expired', detail);
      }
      // The step names the request that settled it: an earlier link the applicant completed, not the
      // one sent last. The one this attempt sent is kept too (`sent_request_id`): it is bought, and
      // still open for the next attempt to adopt.
      const providerIds: Record<string, string> = { ...status.providerIds, request_id: settled.requestId };
      if (current.requestId && current.requestId !== settled.requestId) providerIds.sent_request_id = current.requestId;
      update({ state: 'running', providerIds });
      const read = settled.resultLink ? { link: settled.resultLink } : { requestId: settled.requestId };
      const result = await provider.getIdentityVerificationResult({ ...read, caseId: input.caseId });
      detail.verificationStatus = result.verification_status;
      switch (result.verification_status) {
        case 'Approved':
          // The check's validity window runs from when the applicant completed it.
          status.evidenceDate = result.date_completed ?? null;
          return finish('completed', null, detail);
        case 'Declined':
          spend();
          return finish('needs_attention', 'the provider declined the identity verification', detail);
        case 'ResubmissionRequested':
          if (attempt >= maxResubmissions) {
            spend();
            return finish(
              'needs_attention',
              `the provider asked for resubmission again after ${maxResubmissions} new requests (the limit)`,
              detail,
            );
          }
          update({ reason: `resubmission requested; new request ${attempt + 1} of ${maxResubmissions}`, detail });
          continue;
        default:
          spend();
          return finish(
            'failed',
            `the result endpoint reported verification_status ${String(result.verification_status)}`,
            detail,
          );
      }
    }
  });
}
