/** `notifyLos`: the journey's events to the lender's system (case-api/notifications). A no-op when CASE_EVENTS_URL is unset. */
import type { CaseEventInput } from '../case-api/notifications/caseEvent';
import type { CaseEventsConfig } from '../case-api/notifications/caseEventsConfig';
import { sendCaseEvent } from '../case-api/notifications/sendCaseEvent';

export function createNotificationActivities(config: CaseEventsConfig) {
  return {
    async notifyLos(event: CaseEventInput): Promise<{ sent: boolean }> {
      return { sent: await sendCaseEvent(config, event) };
    },
  };
}
