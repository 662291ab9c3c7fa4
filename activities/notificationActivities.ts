/**
 * `notifyLos`: the journey's events to the lender's system (case-events/). Each event is logged in
 * the case file's event log first (so `GET /v1/cases/{caseId}/events` lists it even while the LOS
 * is down, or when no CASE_EVENTS_URL is set and the LOS only reads), then sent; an event the LOS
 * took is recorded for the case's timeline. Should a write fail, the activity is retried and
 * sends the event again under the same id, which the LOS dedupes.
 */
import type { CaseEventInput } from '../case-events/caseEvent';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { caseEventBody, caseEventId, deliverCaseEvent } from '../case-events/sendCaseEvent';
import { CaseEventLog } from '../case-file/caseEventLog';
import type { CaseFileStore } from '../case-file/store';

export function createNotificationActivities(config: CaseEventsConfig, caseFile?: CaseFileStore) {
  const log = caseFile && new CaseEventLog(caseFile.pool);
  return {
    async notifyLos(event: CaseEventInput): Promise<{ sent: boolean }> {
      const id = caseEventId(event);
      const body = caseEventBody(event);
      await log?.logJourneyEvent({
        id,
        caseId: event.caseId,
        type: event.type,
        version: body.version,
        occurredAt: event.occurredAt,
        data: body.data,
      });
      const sent = await deliverCaseEvent(config, id, body, `${event.type} #${event.sequence}`);
      if (sent && caseFile && log) {
        const { caseId, runId, sequence, type, state, step, occurredAt } = event;
        await caseFile.recordNotification({
          caseId,
          runId,
          sequence,
          type,
          state,
          step: step?.key ?? null,
          occurredAt,
        });
        await log.markDelivered(id);
      }
      return { sent };
    },
  };
}
