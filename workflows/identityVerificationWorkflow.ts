/**
 * Identity verification of one person (spec §4.4, §4.5, §6.6): adopt an open request found through
 * the list call, or create one; wait, under a deadline, for IdentityVerification.Completed or
 * .Expired (or the provider's record, when reconciliation finds the webhook lost); Approved
 * completes, Declined needs attention, ResubmissionRequested starts a new request up to a limit.
 */
import type { Duration } from '@temporalio/common';
import { condition, workflowInfo } from '@temporalio/workflow';
import {
  identityVerificationCompletedSchema,
  identityVerificationExpiredSchema,
  identityVerificationResultSchema,
  type IdvVerificationStatus,
} from '../provider';
import { defaultDeadlines } from './deadlines';
import type { ResourceDelivery } from './messages';
import { provider } from './providerActivities';
import { createResourceInbox } from './resourceInbox';
import { stepStatusQuery, trackStep, type StepStatus } from './stepStatus';

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
  if (delivery.parse === 'polled') {
    const record = identityVerificationResultSchema.safeParse(delivery.data);
    if (!record.success) return undefined;
    if (record.data.status === 'Expired') return { kind: 'expired' };
    if (record.data.status === 'Completed') return { kind: 'completed', verificationStatus: record.data.verification_status ?? undefined };
    return undefined;
  }
  if (delivery.eventType === 'IdentityVerification.Completed') {
    const data = identityVerificationCompletedSchema.safeParse(delivery.data);
    if (data.success) return { kind: 'completed', resultLink: data.data.identity_request.identity_result_endpoint };
  }
  if (delivery.eventType === 'IdentityVerification.Expired' && identityVerificationExpiredSchema.safeParse(delivery.data).success) {
    return { kind: 'expired' };
  }
  return undefined;
}

export async function identityVerificationWorkflow(input: IdentityVerificationInput): Promise<IdentityVerificationStatus> {
  const detail: IdentityVerificationDetail = { personId: input.personId, verificationStatus: null, requests: [] };
  const { status, update, finish } = trackStep<IdentityVerificationDetail>(input.stepKey);
  update({ detail });
  let current: string | null = null;
  let outcome: Outcome | undefined;
  const inbox = createResourceInbox((resource, delivery) => {
    if (resource.kind !== 'idv' || resource.id !== current) return;
    update({ lastEvent: { eventType: delivery.eventType, receivedAt: delivery.receivedAt } });
    outcome ??= outcomeOf(delivery);
  });

  const { workflowId } = workflowInfo();
  const maxResubmissions = input.maxResubmissions ?? 2;
  const deadline = input.deadline ?? defaultDeadlines.identityVerification;

  for (let attempt = 0; ; attempt++) {
    current = await openRequest(input, attempt === 0 && (input.adoptOpenRequest ?? true), `${workflowId}/${attempt}`);
    outcome = undefined;
    detail.requests.push(current);
    update({ state: 'waiting', providerIds: { ...status.providerIds, request_id: current }, detail });
    await inbox.subscribe({ kind: 'idv', id: current }, input.reconcileAfter ?? defaultDeadlines.reconcileAfter);
    // Events that arrived before we subscribed were replayed by the subscription.
    for (const earlier of inbox.of({ kind: 'idv', id: current })) outcome ??= outcomeOf(earlier);

    if (!(await condition(() => outcome !== undefined, deadline))) {
      return finish('expired', `no outcome for request ${current} within ${String(deadline)}, nor from the provider when asked`);
    }
    const settled = outcome as Outcome;
    if (settled.kind === 'expired') {
      detail.verificationStatus = 'NotCompleted';
      return finish('expired', 'the applicant did not complete the check before the link expired', detail);
    }
    update({ state: 'running' });
    const result = await provider.getIdentityVerificationResult(settled.resultLink ? { link: settled.resultLink } : { requestId: current });
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
}

/** Adopts the person's open request when asked to, or creates one (idempotently, by key). */
async function openRequest(input: IdentityVerificationInput, adopt: boolean, idempotencyKey: string): Promise<string> {
  if (adopt) {
    const existing = await provider.listIdentityVerificationRequests({ personId: input.personId });
    const open = existing.find((r) => r.status === 'Pending');
    if (open) return open.request_id;
  }
  const created = await provider.createIdentityVerificationRequest({ personId: input.personId, idempotencyKey });
  return created.request_id;
}
