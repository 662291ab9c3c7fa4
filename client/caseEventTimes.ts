/**
 * A case's own times for the events the LOS acts on, given at start beside the journey
 * input (`notifications`) and recorded in the case file before the journey starts. The journey
 * never receives them: the events are derived outside it (case-file/caseEventSweep.ts).
 */
import { msToNumber } from '@temporalio/common/lib/time';
import { z } from 'zod';
import type { CaseEventSettings } from '../case-file/caseEventSettings';
import { describeIssues } from '../provider';
import { JourneyInputError } from './journeyErrors';

const toMs = (d: string | number): number => {
  try {
    return msToNumber(d as never);
  } catch {
    return Number.NaN;
  }
};
const duration = z
  .union([z.number().int().positive(), z.string()])
  .refine((d) => toMs(d) > 0, 'must be a positive duration such as "2 days", "90 minutes" or milliseconds');

export const caseEventTimesFields = {
  applicantActionDueAfter: duration.optional(),
  applicantActionDueEvery: duration.optional(),
  attentionSla: duration.optional(),
};
export const caseEventTimesSchema = z.object(caseEventTimesFields);
export type CaseEventTimes = z.input<typeof caseEventTimesSchema>;

/** The `notifications` field of a start request, in milliseconds; undefined when it has none. */
export function caseEventSettingsOf(raw: unknown): CaseEventSettings | undefined {
  const given = (raw as { notifications?: unknown } | null)?.notifications;
  if (given === undefined) return undefined;
  const parsed = caseEventTimesSchema.safeParse(given);
  if (!parsed.success) throw new JourneyInputError(describeIssues(parsed.error).map((line) => `notifications.${line}`));
  const times = parsed.data;
  // Whole milliseconds: the case file keeps them as integers ("7.52 ms" failed its insert, a 500).
  const ms = (d: string | number | undefined) => (d === undefined ? undefined : Math.ceil(toMs(d)));
  return {
    actionDueAfterMs: ms(times.applicantActionDueAfter),
    actionDueEveryMs: ms(times.applicantActionDueEvery),
    attentionSlaMs: ms(times.attentionSla),
  };
}
