/**
 * Where journey events go: `CASE_EVENTS_URL` (unset: no notifications, the activity does nothing)
 * and `CASE_EVENTS_SECRET`, the Standard Webhooks signing secret (`whsec_<base64>`) shared with the LOS.
 * The derived events (reminders, SLA breaches, evidence about to go stale) take the deployment's
 * default times from here; a case given its own at start uses those (case_event_settings).
 */
import { msToNumber } from '@temporalio/common/lib/time';
import { z } from 'zod';
import { DEADLINE_PATTERN } from '../config/deadlineDuration';
import { ConfigurationError, httpUrlVariable, parseEnvironment } from '../config/environment';

export interface DerivedEventTimes {
  /** `case.applicant_action_due` first fires this long after a step began waiting on the applicant with a link. */
  actionDueAfterMs: number;
  /** …and again every this long until the step attempt stops waiting. */
  actionDueEveryMs: number;
  /** `case.sla_breached` fires once a case has needed attention this long. */
  attentionSlaMs: number;
  /** `case.evidence_expiring` fires this long before an item of a case's evidence goes stale. */
  evidenceExpiringBeforeMs: number;
  /** How often the worker looks for due events and sends the outbox. */
  sweepIntervalMs: number;
}

export interface CaseEventsConfig extends Partial<DerivedEventTimes> {
  url?: string;
  secret?: string;
  timeoutMs: number;
}

export const derivedEventDefaults: DerivedEventTimes = {
  actionDueAfterMs: 86_400_000,
  actionDueEveryMs: 86_400_000,
  attentionSlaMs: 14_400_000,
  evidenceExpiringBeforeMs: 259_200_000,
  sweepIntervalMs: 15_000,
};

const milliseconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .positive('must be a positive number of milliseconds')
    .default(fallback);

/** A duration as the journey's deadlines take it ("3 days", "12 hours", or milliseconds), in milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .regex(new RegExp(DEADLINE_PATTERN), 'must be a duration such as "3 days" or "12 hours", or milliseconds')
    .default(fallback)
    .transform((text) => msToNumber(/^\d+$/.test(text) ? Number(text) : (text as Parameters<typeof msToNumber>[0])));

export const caseEventsEnvironment = {
  CASE_EVENTS_URL: httpUrlVariable.optional(),
  CASE_EVENTS_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ followed by a Base64 key of 24 bytes or more')
    .optional(),
  CASE_EVENTS_TIMEOUT_MS: milliseconds(10_000),
  CASE_EVENTS_ACTION_DUE_AFTER_MS: milliseconds(derivedEventDefaults.actionDueAfterMs),
  CASE_EVENTS_ACTION_DUE_EVERY_MS: milliseconds(derivedEventDefaults.actionDueEveryMs),
  CASE_EVENTS_SLA_MS: milliseconds(derivedEventDefaults.attentionSlaMs),
  CASE_EVENTS_SWEEP_INTERVAL_MS: milliseconds(derivedEventDefaults.sweepIntervalMs),
  CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE: duration('3 days'),
};

export function readCaseEventsConfig(env: NodeJS.ProcessEnv = process.env): CaseEventsConfig {
  const c = parseEnvironment(caseEventsEnvironment, env);
  if (c.CASE_EVENTS_URL && !c.CASE_EVENTS_SECRET)
    throw new ConfigurationError('Invalid configuration:\n  CASE_EVENTS_SECRET: required when CASE_EVENTS_URL is set');
  return {
    url: c.CASE_EVENTS_URL,
    secret: c.CASE_EVENTS_SECRET,
    timeoutMs: c.CASE_EVENTS_TIMEOUT_MS,
    actionDueAfterMs: c.CASE_EVENTS_ACTION_DUE_AFTER_MS,
    actionDueEveryMs: c.CASE_EVENTS_ACTION_DUE_EVERY_MS,
    attentionSlaMs: c.CASE_EVENTS_SLA_MS,
    evidenceExpiringBeforeMs: c.CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE,
    sweepIntervalMs: c.CASE_EVENTS_SWEEP_INTERVAL_MS,
  };
}

/** The config's times, each defaulted. */
export const derivedEventTimes = (config: CaseEventsConfig): DerivedEventTimes => ({
  actionDueAfterMs: config.actionDueAfterMs ?? derivedEventDefaults.actionDueAfterMs,
  actionDueEveryMs: config.actionDueEveryMs ?? derivedEventDefaults.actionDueEveryMs,
  attentionSlaMs: config.attentionSlaMs ?? derivedEventDefaults.attentionSlaMs,
  evidenceExpiringBeforeMs: config.evidenceExpiringBeforeMs ?? derivedEventDefaults.evidenceExpiringBeforeMs,
  sweepIntervalMs: config.sweepIntervalMs ?? derivedEventDefaults.sweepIntervalMs,
});
