/**
 * Plays the applicant of a whole journey against the simulator, for the suites that lose the
 * provider's answers (test/workflows/boughtOnce.test.ts, lostResponses.test.ts): completes their
 * IDV request and every bank connection the provider made for the case, until the journey settles.
 * When it does not settle in time, the failure says where each unsettled step stands in Temporal.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';

type Control = (path: string, body?: unknown, method?: string) => Promise<Record<string, unknown>>;

export interface PlayedApplicant {
  caseId: string;
  personId: string;
}

/** Nothing runs or waits: every step completed or waits for an operator. */
export const settled = (s: JourneyStatus) =>
  Object.values(s.steps).every((step) => !['pending', 'running', 'waiting'].includes(step.state));

export async function playApplicant(
  control: Control,
  client: Client,
  a: PlayedApplicant,
  handle: WorkflowHandle,
  budgetMs = 240_000,
): Promise<JourneyStatus> {
  const idv = `identity-verification/${a.personId}`;
  const done = new Set<string>();
  const act = async (s: JourneyStatus) => {
    const request = s.steps[idv]?.providerIds.request_id;
    if (s.steps[idv]?.state === 'waiting' && request && !done.has(request)) {
      done.add(request);
      await control(`/identity-verifications/${request}/complete`, { verification_status: 'Approved' });
    }
    // Every connection the provider made for the case: the link reached the applicant one way or another.
    if (s.steps.banking && !['completed', 'failed'].includes(s.steps.banking.state)) {
      const made = (await control(`/ledger?case_id=${a.caseId}`)).openBankingConnections as {
        bank_connection_id: string;
        status: string;
      }[];
      for (const c of made.filter((c) => c.status === 'Pending' && !done.has(c.bank_connection_id))) {
        done.add(c.bank_connection_id);
        await control(`/open-banking-connections/${c.bank_connection_id}/complete`, {
          status: 'Connected',
          accounts: 1,
        });
      }
    }
  };
  let acting: Promise<void> | undefined;
  let last: JourneyStatus | undefined;
  try {
    return await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => {
        last = s;
        acting ??= act(s).finally(() => (acting = undefined));
        return settled(s);
      },
      budgetMs,
    );
  } catch (error) {
    throw new Error(`${String(error)}\nwhere it stands: ${await whereItStands(client, handle.workflowId, last)}`, {
      cause: error,
    });
  }
}

/**
 * What Temporal says of a journey and its unsettled steps: each one's pending activities (attempt,
 * last failure) and how many workflow tasks failed or timed out, so that a failure names its cause.
 */
async function whereItStands(client: Client, journeyId: string, last: JourneyStatus | undefined): Promise<string> {
  const unsettled = Object.values(last?.steps ?? {})
    .filter((step) => ['pending', 'running', 'waiting'].includes(step.state))
    .map((step) => step.workflowId);
  const lines = await Promise.all([journeyId, ...unsettled].map((id) => describeWorkflow(client, id)));
  return lines.join('\n');
}

async function describeWorkflow(client: Client, workflowId: string): Promise<string> {
  try {
    const handle = client.workflow.getHandle(workflowId);
    const description = await handle.describe();
    const activities = (description.raw.pendingActivities ?? []).map(
      (a) => `${a.activityType?.name} attempt ${a.attempt} (${a.lastFailure?.message ?? 'no failure'})`,
    );
    let taskProblems = 0;
    const history = await handle.fetchHistory();
    for (const event of history.events ?? [])
      if (event.workflowTaskFailedEventAttributes || event.workflowTaskTimedOutEventAttributes) taskProblems++;
    return `${workflowId}: ${description.status.name}, pending activities [${activities.join('; ')}], failed or timed-out workflow tasks ${taskProblems}`;
  } catch (error) {
    return `${workflowId}: not described (${String(error)})`;
  }
}
