/**
 * `notifyLos`: the journey's events to the lender's system (case-events/). A no-op when
 * CASE_EVENTS_URL is unset. An event the LOS took is recorded in the case file for the case's
 * timeline; should that write fail, the activity is retried and sends the event again under the
 * same id, which the LOS dedupes.
 */
import type { CaseEventInput } from '../case-events/caseEvent';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { sendCaseEvent } from '../case-events/sendCaseEvent';
import type { CaseFileStore } from '../case-file/store';

export function createNotificationActivities(config: CaseEventsConfig, caseFile?: CaseFileStore) {
  return {
    async notifyLos(event: CaseEventInput): Promise<{ sent: boolean }> {
      const sent = await sendCaseEvent(config, event);
      if (sent && caseFile) {
        const { caseId, runId, sequence, type, state, step, occurredAt } = event;
        await caseFile.recordNotification({ caseId, runId, sequence, type, state, step: step?.key ?? null, occurredAt });
      }
      return { sent };
    },
  };
}
