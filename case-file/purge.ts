/**
 * Erasure (`journey purge`): every row of a case's evidence, documents and their bytes included,
 * and the names of its company and people (case_parties) are deleted; the rows that account for
 * the case stay with their personal fields blanked: the read model (case_journeys), the operator
 * audit trail (operator_audit) and the events of the case (case_events). A purged case can still
 * be read and accounted for (who did what, when, with what outcome), and nothing left names the
 * applicant. Whether the case may be purged (its journey closed) is the caller's decision
 * (cli/caseFileCommands.ts). All of it in the caller's one transaction.
 *
 * Field by field, what stays and what is blanked, and why:
 *
 * - `operator_audit`: `at`, `actor`, `action`, `step`, `assignee`, `request_id`, `outcome` stay.
 *   The actor and the assignee are operators (API key names, signed-in operators), not the
 *   applicant: they are what an auditor asks for. `step` is a step key (`identity-verification/`
 *   and the person's id, an id the lender chose, as the read model keeps it), `request_id` the
 * request's id (made by the API or the CLI, or the client's idempotency key). `reason` is blanked:
 * free text an operator typed ("spoke to Ada Lovelace …").
 *   `message` is blanked: the journey's refusal can quote the picklist's company names
 *   (client/creditReportMessages.ts) and a step's reason, which holds a waiver's free text.
 *   This is the one change an audit entry ever sees: the database refuses any other (migration 006).
 * - `case_journeys`: ids, states, attempts, provider ids, times, outcome, assignee stay (the case
 *   stays readable and `journey retry` can still plan from it). Blanked: every step's and attempt's
 *   `reason` and `requestedBecause` (a waiver's or retry's free text, a bank statement's file name,
 *   a provider's message), `detail` (the provider's answer: IDV verdicts, picklist candidates,
 *   accounts), `links` (the applicant's own verification and bank links), `error.message` (the
 *   provider's words; the status stays), `lastEvent.problems` (they quote delivery data). The
 *   case's `reasons` lines embed the steps' reasons and a cancel's free text: they become
 *   `<step>: <state>` for each step not completed or waived. `picklist` (company names and
 *   addresses) goes. A new revision, so live views show the purged state.
 * - `case_events`: ids, types, times, delivery state stay (the LOS's record of what it was told
 *   stays consistent). Blanked in `data`: `reasons` (the lines above) and `reason` (a step's
 *   reason). `last_error` is blanked: the LOS's answer to a delivery can echo the body it got.
 *   `case.operator_action` carries no reason already (migration 005).
 * - `case_starts`: the case id, the lender's reference and when it started stay; the request (which
 *   names the company and the people) becomes `{"purged": true}`, so a later start of the case is
 *   refused as a changed start of a closed case rather than compared with the applicant's data.
 * - `case_notifications`, `case_event_settings`, `case_link_waits`: types, states, step keys,
 *   times; nothing personal, kept.
 */
import type { PoolClient } from 'pg';
import { caseTables, type CaseTable } from './evidence';

/** Children before parents; `document_contents` goes with `documents` (ON DELETE CASCADE). */
const deletionOrder: readonly CaseTable[] = [
  'bank_transactions',
  'bank_accounts',
  'affordability_transactions',
  'affordability_insights',
  'credit_reports',
  'idv_results',
  'income_employer_results',
  'provider_documents',
  'documents',
];

/** What `purgeCase` answers: rows deleted per table, and rows kept with their personal fields blanked. */
export type PurgeCounts = Record<
  | CaseTable
  | 'case_parties'
  | 'case_journeys_blanked'
  | 'operator_audit_blanked'
  | 'case_events_blanked'
  | 'case_starts_blanked',
  number
>;

export async function purgeCase(client: PoolClient, caseId: string): Promise<PurgeCounts> {
  const deleted = {} as Record<CaseTable, number>;
  for (const table of deletionOrder)
    deleted[table] = (await client.query(`DELETE FROM ${table} WHERE case_id = $1`, [caseId])).rowCount ?? 0;
  if (Object.keys(deleted).length !== caseTables.length) throw new Error('purge misses a table of the case file');
  const parties = (await client.query('DELETE FROM case_parties WHERE case_id = $1', [caseId])).rowCount ?? 0;
  const audit =
    (await client.query('UPDATE operator_audit SET reason = NULL, message = NULL WHERE case_id = $1', [caseId]))
      .rowCount ?? 0;
  const events =
    (
      await client.query(
        `UPDATE case_events SET last_error = NULL,
         data = CASE WHEN data ? 'reasons' THEN jsonb_set(data, '{reasons}', '[]'::jsonb) ELSE data END
                || CASE WHEN data ? 'reason' THEN jsonb_build_object('reason', NULL) ELSE '{}'::jsonb END
       WHERE case_id = $1`,
        [caseId],
      )
    ).rowCount ?? 0;
  return {
    ...deleted,
    case_parties: parties,
    case_journeys_blanked: await blankReadModel(client, caseId),
    operator_audit_blanked: audit,
    case_events_blanked: events,
    case_starts_blanked:
      (await client.query(`UPDATE case_starts SET request = '{"purged": true}'::jsonb WHERE case_id = $1`, [caseId]))
        .rowCount ?? 0,
  };
}

type Json = Record<string, unknown>;
const settled = ['completed', 'waived'];

async function blankReadModel(client: PoolClient, caseId: string): Promise<number> {
  const { rows } = await client.query<{ steps: Record<string, Json> }>(
    'SELECT steps FROM case_journeys WHERE case_id = $1 FOR UPDATE',
    [caseId],
  );
  if (!rows[0]) return 0;
  const steps = Object.fromEntries(Object.entries(rows[0].steps).map(([key, step]) => [key, blankStep(step)]));
  const reasons = Object.entries(steps)
    .filter(([, s]) => !settled.includes(String(s.state)))
    .map(([key, s]) => `${key}: ${String(s.state)}`);
  const links = Object.fromEntries(Object.keys(steps).map((key) => [key, {}]));
  // The journey's trigger (migration 005) sees no new expiry and no link here, so it adds no event.
  await client.query(
    `UPDATE case_journeys SET steps = $2, reasons = $3, links = $4, picklist = NULL, updated_at = now(),
       revision = nextval('case_journeys_revision')
     WHERE case_id = $1`,
    [caseId, JSON.stringify(steps), JSON.stringify(reasons), JSON.stringify(links)],
  );
  return 1;
}

function blankStep(step: Json): Json {
  const blanked: Json = { ...step, reason: null, detail: null, links: {} };
  if (step.error && typeof step.error === 'object') blanked.error = { ...(step.error as Json), message: '' };
  if (step.lastEvent && typeof step.lastEvent === 'object') {
    const { problems: _problems, ...lastEvent } = step.lastEvent as Json;
    blanked.lastEvent = lastEvent;
  }
  if (Array.isArray(step.attempts)) {
    blanked.attempts = (step.attempts as Json[]).map((a) => ({
      ...a,
      reason: null,
      ...('requestedBecause' in a ? { requestedBecause: null } : {}),
    }));
  }
  return blanked;
}
