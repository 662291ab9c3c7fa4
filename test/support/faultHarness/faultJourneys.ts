/**
 * Journeys for the fault suite and the soak: an applicant at the simulator, a journey for their
 * case, and the applicant acting (IDV approved, bank connected) once the journey asks. Deadlines are
 * short and reconciliation early, so a journey whose webhook is lost settles by polling in seconds;
 * one that needs attention ends soon after (no operator here), so a failing case fails fast.
 */
import type { Client } from '@temporalio/client';
import type { OnboardCaseInput } from '../../../client/journeyInput';
import type { Json } from './rawProviderApi';
import type { CaseFileStore } from '../../../case-file/store';
import { readCaseStatus } from '../../../client/caseReads';
import type { JourneyStatus, OnboardCaseWorkflow } from '../../../client/journeyMessages';
import { startJourney as startCaseJourney } from '../../../client/journeyOperations';

export type Control = (path: string, body?: unknown, method?: string) => Promise<Json>;

export interface Applicant {
  caseId: string;
  personId: string;
}

export interface JourneyPlan {
  /** Open banking (cannot be polled: its webhook must not be lost) and an affordability insight after it. */
  banking: boolean;
  /** Time for a step before it expires; also bounds how long a test can wait. */
  deadline?: string;
  reconcileAfter?: string;
}

export async function newApplicant(control: Control): Promise<Applicant> {
  const caseId = (await control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  return { caseId, personId };
}

export function journeyInput(a: Applicant, plan: JourneyPlan): OnboardCaseInput {
  const deadline = plan.deadline ?? '2 minutes';
  return {
    caseId: a.caseId,
    people: [{ personId: a.personId }],
    steps: {
      identityVerification: true,
      incomeEmployer: true,
      ...(plan.banking ? { banking: 'open_banking' as const, affordability: true } : {}),
    },
    deadlines: {
      identityVerification: deadline,
      banking: deadline,
      affordability: deadline,
      incomeEmployer: deadline,
      reconcileAfter: plan.reconcileAfter ?? '3 seconds',
      providerCalls: '5 minutes',
      operatorDecision: '5 seconds',
    },
  };
}

export async function startJourney(client: Client, taskQueue: string, a: Applicant, plan: JourneyPlan) {
  const started = await startCaseJourney({ client, taskQueue }, journeyInput(a, plan));
  return client.workflow.getHandle<OnboardCaseWorkflow>(started.workflowId, started.runId ?? undefined);
}

/**
 * Waits until the journey has asked the applicant (IDV request, and bank connection when planned);
 * answers their ids. Read from the case file's read model, never by query: a query sent while a
 * killed worker's run waits for its next task can split that task (docs/reliability.md). `pollMs`
 * spaces the reads.
 */
export async function askedOf(
  caseFile: CaseFileStore,
  a: Applicant,
  plan: JourneyPlan,
  timeoutMs = 120_000,
  pollMs = 100,
): Promise<{ requestId: string; connectionId?: string }> {
  const idv = `identity-verification/${a.personId}`;
  const deadline = Date.now() + timeoutMs;
  let last: JourneyStatus | undefined;
  for (;;) {
    // Not written yet, or the case file away for a moment: read again at the next round.
    last = (await readCaseStatus(caseFile, a.caseId).catch(() => undefined)) ?? last;
    const requestId = last?.steps[idv]?.providerIds.request_id;
    const connectionId = last?.steps.banking?.providerIds.bank_connection_id;
    if (requestId !== undefined && (!plan.banking || connectionId !== undefined)) return { requestId, connectionId };
    if (Date.now() > deadline)
      throw new Error(
        `case ${a.caseId} did not ask the applicant within ${timeoutMs} ms; last seen: ${JSON.stringify(last)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The applicant's part at the provider: IDV approved, the bank connected. */
export async function act(control: Control, ids: { requestId: string; connectionId?: string }): Promise<void> {
  await control(`/identity-verifications/${ids.requestId}/complete`, { verification_status: 'Approved' });
  if (ids.connectionId)
    await control(`/open-banking-connections/${ids.connectionId}/complete`, { status: 'Connected', accounts: 1 });
}

/** The applicant acts once asked. */
export async function applicantActs(
  caseFile: CaseFileStore,
  control: Control,
  a: Applicant,
  plan: JourneyPlan,
  timeoutMs = 120_000,
): Promise<void> {
  await act(control, await askedOf(caseFile, a, plan, timeoutMs));
}
