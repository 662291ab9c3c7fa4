/** `notifyLos`: the journey's events to the lender's system (case-events/). A no-op when CASE_EVENTS_URL is unset. */
import type { CaseEventInput } from '../case-events/caseEvent';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { sendCaseEvent } from '../case-events/sendCaseEvent';

export function createNotificationActivities(config: CaseEventsConfig) {
  return {
    async notifyLos(event: CaseEventInput): Promise<{ sent: boolean }> {
      return { sent: await sendCaseEvent(config, event) };
    },
  };
}
