/**
 * Where a journey that did not settle stands, for a failing test to print: what Temporal says of
 * the journey and each unsettled step (pending activities, failed workflow tasks, recent history).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { JourneyStatus } from '../../client/journeyMessages';

/**
 * What Temporal says of a journey and its unsettled steps: each one's pending activities (attempt,
 * last failure) and how many workflow tasks failed or timed out, so that a failure names its cause.
 */
export async function whereItStands(
  client: Client,
  journeyId: string,
  last: Pick<JourneyStatus, 'steps'> | undefined,
): Promise<string> {
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
