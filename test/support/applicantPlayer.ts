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
    const stands = await whereItStands(client, handle.workflowId, last);
    // Also on stderr: a suite environment that fails a file for leftover handles can hide the error.
    process.stderr.write(`${handle.workflowId} did not settle; where it stands:\n${stands}\n`);
    throw new Error(`${String(error)}\nwhere it stands: ${stands}`, { cause: error });
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
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const taskProblems = events.filter(
      (event) => event.workflowTaskFailedEventAttributes || event.workflowTaskTimedOutEventAttributes,
    ).length;
    return (
      `${workflowId}: ${description.status.name}, pending activities [${activities.join('; ')}], ` +
      `failed or timed-out workflow tasks ${taskProblems}\n${timeline(events)}`
    );
  } catch (error) {
    return `${workflowId}: not described (${String(error)})`;
  }
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** The history's last events, each with its time from the first and what it names (no payloads). */
function timeline(events: HistoryEvent[], last = 60): string {
  const seconds = (event: HistoryEvent) => Number(event.eventTime?.seconds ?? 0) + (event.eventTime?.nanos ?? 0) / 1e9;
  const first = events[0] ? seconds(events[0]) : 0;
  return events
    .slice(-last)
    .map((event) => {
      const attributes = Object.entries(event).find(([key, value]) => key.endsWith('EventAttributes') && value);
      const name = attributes ? attributes[0].replace(/EventAttributes$/, '') : String(event.eventType);
      const detail = attributes ? eventDetail(attributes[1] as Record<string, unknown>) : '';
      return `  +${(seconds(event) - first).toFixed(1)}s #${event.eventId} ${name}${detail}`;
    })
    .join('\n');
}

function eventDetail(attributes: Record<string, unknown>): string {
  const named = (value: unknown) => (value as { name?: string } | undefined)?.name;
  const parts = [
    named(attributes.activityType),
    named(attributes.workflowType),
    attributes.signalName,
    attributes.timerId && `timer ${String(attributes.timerId)}`,
    attributes.startToFireTimeout &&
      `fires after ${String((attributes.startToFireTimeout as { seconds?: unknown }).seconds)}s`,
    (attributes.failure as { message?: string } | undefined)?.message,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}
