/**
 * What must hold once a driven journey has settled, held against the
 * provider's own records (the simulator's ledger, `/_control/ledger`) and the case file:
 *
 * - a purchase per need: credit reports for the company, IDV requests for the person, bank
 *   connections and affordability insights for the case are at most 1 + the fresh purchases the
 *   operator asked for + the needs the journey found spent (attempts marked `needSpent`), each
 *   bought under a business key (`case/<caseId>/<step>/<need>/…`), and a new need only when an
 *   operator asked for it or the one before was spent;
 * - one purchase per need, whatever the provider does with idempotency keys (the simulator
 *   ignores them, as the spec gives none): no two purchases under one key;
 * - every purchase in its case's purchase ledger (case-file/purchaseLedger.ts, read through the
 *   case file's evidence): held by the row of the very call that made it, or, where the call's
 *   answer was lost and nothing found what it made, by that call's row still without an id
 *   (outcome unknown: recorded as a possible purchase, counted in the summary);
 * - no case holds another case's resource: every id in the case's ledger is one the provider made
 *   for this journey's company, person or case;
 * - everything bought is recorded: every purchase is in some attempt's provider ids (in any run
 *   of the journey: a reset and a journey retry start new runs) and every credit report in the
 *   case file, but for a call whose outcome is unknown, which the ledger holds instead; and a
 *   completed IDV step's result, a completed banking step's accounts and a completed
 *   affordability step's insight too;
 * - a completed journey agrees with the provider: its report is the ledger's report, resolved once,
 *   to the entry the step shows; its IDV request is Completed and Approved; its bank connection is
 *   Connected; its insight exists.
 */
import type { JourneyStatus, JourneyStep } from '../../../client/journeyMessages';
import type { CreditReportDetail } from '../../../client/creditReportMessages';
import type { CaseEvidence } from '../../../case-file/evidence';
import type { Purchase, PurchaseKind } from '../../../case-file/purchaseLedger';
import { journeyStatusQuery } from '../../../client/journeyMessages';
import { stepStatusQuery } from '../../../client/stepMessages';
import type { DrivenJourney, Ledger, ModelEnvironment } from './journeyDriver';
import { stepKeyOf } from './journeyDriver';
import { keptHistory } from './keptHistory';
import type { StepRole } from './sequences';

export interface Checked {
  violations: string[];
  /**
   * Purchases a reset cut off from the journey: bought by an attempt of a run the reset replaced
   * (Temporal leaves a reset run's children running), so recorded in that attempt's own workflow
   * and the case file, but in no run of the journey. Allowed (the reset discarded the journey's
   * record of them), counted, and shown in the summary.
   */
  cutOffByReset: string[];
  /** How many runs of the journey were read. */
  runs: number;
  /**
   * Purchases the provider made whose creating call's outcome stayed unknown (the answer lost,
   * nothing found it): in the case's ledger as that call's row without an id, in no attempt.
   */
  outcomeUnknown: string[];
  purchases: { creditReports: number; identityVerifications: number; connections: number; insights: number };
}

/** Every run of the journey that can be read, oldest first. */
async function runStatuses(
  env: ModelEnvironment,
  j: DrivenJourney,
): Promise<{ runId: string; status?: JourneyStatus; error?: string }[]> {
  const workflowId = `case/${j.caseId}`;
  const runIds = new Set(j.runIds);
  for await (const execution of env.stack.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    runIds.add(execution.runId);
  const read = async (runId: string): Promise<{ status?: JourneyStatus; error?: string }> => {
    // A closed run is replayed to answer; a worker restarting just now answers a moment later.
    let error = '';
    for (let tries = 0; tries < 5; tries++) {
      const status = await env.stack.client.workflow
        .getHandle(workflowId, runId)
        .query(journeyStatusQuery)
        .catch((e: Error) => {
          error = e.message;
          return undefined;
        });
      if (status) return { status };
      await new Promise((r) => setTimeout(r, 1_000));
    }
    return { error };
  };
  return Promise.all([...runIds].map(async (runId) => ({ runId, ...(await read(runId)) })));
}

/** Every provider id the step workflows of the case recorded (each attempt's own status, every run). */
async function stepWorkflowIds(env: ModelEnvironment, j: DrivenJourney): Promise<Set<string>> {
  const ids = new Set<string>();
  const reads: Promise<void>[] = [];
  for await (const execution of env.stack.client.workflow.list({ query: `CaseId = '${j.caseId}'` })) {
    if (!execution.workflowId.startsWith(`case/${j.caseId}/`)) continue;
    reads.push(
      env.stack.client.workflow
        .getHandle(execution.workflowId, execution.runId)
        .query(stepStatusQuery)
        .then(
          (status) => {
            for (const id of Object.values(status.providerIds)) ids.add(id);
            const requests = (status.detail as { requests?: unknown } | null)?.requests;
            if (Array.isArray(requests)) for (const r of requests) ids.add(String(r));
          },
          () => undefined,
        ),
    );
  }
  await Promise.all(reads);
  return ids;
}

const stepsOf = (statuses: JourneyStatus[], key: string): JourneyStep[] =>
  statuses.map((s) => s.steps[key]).filter((s): s is JourneyStep => s !== undefined);

/** Every provider id the journey recorded for a step, in any run, attempt or detail. */
function idsOf(steps: JourneyStep[], name: string): Set<string> {
  const ids = new Set<string>();
  for (const step of steps) {
    if (step.providerIds[name]) ids.add(step.providerIds[name]);
    for (const attempt of step.attempts) {
      if (attempt.providerIds[name]) ids.add(attempt.providerIds[name]);
      // The request an IDV attempt sent itself when an earlier link settled it.
      if (name === 'request_id' && attempt.providerIds.sent_request_id) ids.add(attempt.providerIds.sent_request_id);
    }
    const requests = (step.detail as { requests?: unknown } | null)?.requests;
    if (name === 'request_id' && Array.isArray(requests)) for (const r of requests) ids.add(String(r));
  }
  return ids;
}

/** The needs a step's attempts found spent, and those an operator (or a rerun dependency) asked to buy fresh. */
function needsOf(steps: JourneyStep[]): { spent: Set<number>; fresh: Set<number>; all: Set<number> } {
  const spent = new Set<number>();
  const fresh = new Set<number>();
  const all = new Set<number>();
  for (const step of steps) {
    for (const attempt of step.attempts) {
      if (attempt.need === undefined) continue;
      all.add(attempt.need);
      if (attempt.needSpent) spent.add(attempt.need);
      if (attempt.fresh) fresh.add(attempt.need);
    }
  }
  return { spent, fresh, all };
}

export async function checkInvariants(env: ModelEnvironment, j: DrivenJourney): Promise<Checked> {
  const violations: string[] = [];
  const runs = await runStatuses(env, j);
  for (const run of runs) {
    if (run.status) continue;
    violations.push(
      `run ${run.runId} of the journey could not be queried (${run.error}): its record of purchases cannot be checked${await keptHistory(env, j, run.runId)}`,
    );
  }
  const statuses = runs.flatMap((r) => (r.status ? [r.status] : []));
  const control = env.control;
  const byCompany = (await control(`/ledger?company_id=${j.companyId}`)) as Ledger;
  const byPerson = (await control(`/ledger?person_id=${j.personId}`)) as Ledger;
  const byCase = (await control(`/ledger?case_id=${j.caseId}`)) as Ledger;
  const evidence = await env.stack.caseFile.evidence(j.caseId);
  const cutOffByReset: string[] = [];
  let stepIds: Set<string> | undefined;

  // The case's purchase ledger: rows by what they hold, and the calls whose outcome is not known.
  const heldBy = new Map<string, Purchase>();
  for (const row of evidence.purchases)
    if (row.provider_id) heldBy.set(`${row.kind}/${row.provider_id.toLowerCase()}`, row);
  const open = new Map(evidence.purchases.filter((row) => !row.provider_id).map((row) => [row.call_key, row]));
  const outcomeUnknown: string[] = [];

  const purchases: {
    role: StepRole;
    kind: PurchaseKind;
    ids: string[];
    keys: (string | null)[];
    idName: string;
    what: string;
  }[] = [
    {
      role: 'credit-report',
      kind: 'credit-report',
      ids: byCompany.creditReports.map((r) => r.report_id),
      keys: byCompany.creditReports.map((r) => r.idempotency_key),
      idName: 'report_id',
      what: 'credit reports for the company',
    },
    {
      role: 'idv',
      kind: 'idv',
      ids: byPerson.identityVerifications.map((r) => r.request_id),
      keys: byPerson.identityVerifications.map((r) => r.idempotency_key),
      idName: 'request_id',
      what: 'IDV requests for the person',
    },
    {
      role: 'banking',
      kind: 'open-banking',
      ids: byCase.openBankingConnections.map((c) => c.bank_connection_id),
      keys: byCase.openBankingConnections.map((c) => c.idempotency_key),
      idName: 'bank_connection_id',
      what: 'bank connections for the case',
    },
    {
      role: 'affordability',
      kind: 'affordability',
      ids: byCase.affordabilityInsights.map((i) => i.request_id),
      keys: byCase.affordabilityInsights.map((i) => i.idempotency_key),
      idName: 'request_id',
      what: 'affordability insights for the case',
    },
  ];
  for (const p of purchases) {
    // One purchase per need: a key the provider made two things under is a need bought twice.
    const perKey = new Map<string, number>();
    for (const k of p.keys) if (k) perKey.set(k, (perKey.get(k) ?? 0) + 1);
    for (const [k, n] of perKey)
      if (n > 1) violations.push(`${n} ${p.what} under one key ${k}: one need bought ${n} times`);
    // Every purchase in the case's ledger, held by the call that made it.
    for (const [i, id] of p.ids.entries()) {
      const made = p.keys[i] ?? null;
      const row = heldBy.get(`${p.kind}/${id.toLowerCase()}`);
      if (row && row.call_key !== made)
        violations.push(
          `${p.what}: ${id}, made by the call ${made}, is held in the ledger by the call ${row.call_key}`,
        );
      else if (!row && made && open.has(made))
        outcomeUnknown.push(`${p.what}: ${id} (${made}, ${open.get(made)!.state})`);
      else if (!row) violations.push(`${p.what}: ${id} (key ${made}) bought but not in the case's purchase ledger`);
    }
    const key = stepKeyOf(j, p.role);
    const steps = stepsOf(statuses, key);
    const needs = needsOf(steps);
    // Affordability's fresh needs are the journey's own (banking ran again); the others only an operator asks for.
    const fresh =
      p.role === 'affordability' ? needs.fresh.size : j.record.fresh[p.role] + j.record.freshUnknown[p.role];
    const allowed = 1 + fresh + needs.spent.size;
    if (p.ids.length > allowed) {
      violations.push(
        `${p.ids.length} ${p.what}, at most ${allowed} allowed (1 + ${fresh} fresh + ${needs.spent.size} needs spent): keys ${JSON.stringify(p.keys)}`,
      );
    }
    if (p.role !== 'affordability' && needs.fresh.size > j.record.fresh[p.role] + j.record.freshUnknown[p.role]) {
      violations.push(
        `${key} bought fresh for needs ${[...needs.fresh].join(', ')} but the operator asked ${j.record.fresh[p.role]} time(s)`,
      );
    }
    const prefix = `case/${j.caseId}/${key}/`;
    for (const k of p.keys) {
      const need = k?.startsWith(prefix) ? Number(k.slice(prefix.length).split('/')[0]) : NaN;
      if (!Number.isInteger(need))
        violations.push(
          `${p.what}: a purchase under key ${JSON.stringify(k)}, not one of the journey's business keys (${prefix}<need>/…)`,
        );
      else if (need > 1 && !needs.fresh.has(need) && !needs.spent.has(need - 1))
        violations.push(
          `${key} bought for need ${need} although need ${need - 1} was not spent and nobody asked for a fresh one`,
        );
    }
    const recorded = idsOf(steps, p.idName);
    // A call whose outcome is unknown is recorded in the ledger, not in an attempt (above).
    let unseen = p.ids
      .map((id, i) => ({ id, key: p.keys[i] }))
      .filter(({ id, key: k }) => !recorded.has(id) && !(k && open.has(k)));
    if (unseen.length > 0 && j.record.resets > 0) {
      stepIds ??= await stepWorkflowIds(env, j);
      const known = stepIds;
      cutOffByReset.push(...unseen.filter((u) => known.has(u.id)).map((u) => `${p.what}: ${u.id} (key ${u.key})`));
      unseen = unseen.filter((u) => !known.has(u.id));
    }
    if (unseen.length > 0)
      violations.push(
        `${p.what}: ${unseen.map((u) => `${u.id} (key ${u.key})`).join(', ')} bought but in no attempt of any run of the journey (${runs.length} run(s))${j.record.resets > 0 ? ', nor in any step workflow of the case' : ''}`,
      );
  }

  for (const report of byCompany.creditReports) {
    if (report.picklist_resolutions > 1)
      violations.push(`credit report ${report.report_id}'s picklist was resolved ${report.picklist_resolutions} times`);
  }
  // No case holds another case's resource: every id in the ledger is one the provider made for this journey.
  const madeHere: Record<PurchaseKind, Set<string>> = {
    'credit-report': new Set(byCompany.creditReports.map((r) => r.report_id.toLowerCase())),
    'picklist-resolution': new Set(byCompany.creditReports.map((r) => r.report_id.toLowerCase())),
    idv: new Set(byPerson.identityVerifications.map((r) => r.request_id.toLowerCase())),
    'open-banking': new Set(byCase.openBankingConnections.map((c) => c.bank_connection_id.toLowerCase())),
    affordability: new Set(byCase.affordabilityInsights.map((i) => i.request_id.toLowerCase())),
    document: new Set(),
    'income-employer': new Set(),
  };
  for (const row of evidence.purchases) {
    if (row.case_id !== j.caseId) violations.push(`the case's ledger lists the call ${row.call_key} of another case`);
    if (row.provider_id && !madeHere[row.kind].has(row.provider_id.toLowerCase()))
      violations.push(
        `the case's ledger holds ${row.kind} ${row.provider_id} (${row.call_key}), which the provider did not make for this case`,
      );
  }

  const filed = new Set(evidence.creditReports.map((r) => String(r.report_id)));
  const notFiled = byCompany.creditReports
    .filter((r) => !filed.has(r.report_id) && !(r.idempotency_key && open.has(r.idempotency_key)))
    .map((r) => r.report_id);
  if (notFiled.length > 0) violations.push(`credit reports ${notFiled.join(', ')} bought but not in the case file`);

  if (j.final) violations.push(...settledAgreement(j, j.final, { byCompany, byPerson, byCase }, evidence, env));
  return {
    violations,
    cutOffByReset,
    runs: runs.length,
    outcomeUnknown,
    purchases: {
      creditReports: byCompany.creditReports.length,
      identityVerifications: byPerson.identityVerifications.length,
      connections: byCase.openBankingConnections.length,
      insights: byCase.affordabilityInsights.length,
    },
  };
}

/** A completed journey's steps against the provider's records. */
function settledAgreement(
  j: DrivenJourney,
  s: JourneyStatus,
  ledgers: { byCompany: Ledger; byPerson: Ledger; byCase: Ledger },
  evidence: CaseEvidence,
  env: ModelEnvironment,
): string[] {
  const problems: string[] = [];
  const idvFiled = evidence.idvResults.map((r) => String(r.request_id));
  const report = s.steps['credit-report'];
  if (report?.state === 'completed') {
    const reportId = report.providerIds.report_id;
    const held = ledgers.byCompany.creditReports.find((r) => r.report_id === reportId);
    const stored = reportId ? env.stack.simulator.store.creditReports.get(reportId) : undefined;
    const resolutions = ledgers.byCompany.picklistResolutions.filter((r) => r.report_id === reportId);
    const shown = (report.detail as CreditReportDetail | null)?.report?.provider_id;
    if (!held || !stored) problems.push(`the completed credit report ${reportId} is not the provider's`);
    else if (stored.status !== 'Complete' || !held.picklist_resolved)
      problems.push(
        `the completed credit report ${reportId} is ${stored.status} at the provider (picklist resolved: ${held.picklist_resolved})`,
      );
    else if (
      resolutions.length !== 1 ||
      resolutions[0]?.provider_id !== shown ||
      stored.report?.provider_id !== shown
    ) {
      problems.push(
        `credit report ${reportId} shows entry ${shown}; the provider resolved it to ${resolutions.map((r) => r.provider_id).join(', ')} and holds ${stored.report?.provider_id}`,
      );
    } else if (!j.record.picklistChoices.includes(shown as string))
      problems.push(
        `credit report ${reportId} was resolved to ${shown}, which no operator chose (${j.record.picklistChoices.join(', ')})`,
      );
  }
  const idv = s.steps[stepKeyOf(j, 'idv')];
  if (idv?.state === 'completed') {
    const requestId = idv.providerIds.request_id;
    const stored = requestId ? env.stack.simulator.store.identityVerifications.get(requestId) : undefined;
    if (
      !stored ||
      stored.person_id !== j.personId ||
      stored.status !== 'Completed' ||
      stored.verification_status !== 'Approved'
    ) {
      problems.push(
        `the completed IDV step holds request ${requestId}, which the provider has as ${stored ? `${stored.status}/${stored.verification_status} for ${stored.person_id}` : 'nothing'}`,
      );
    }
    if (requestId && !idvFiled.includes(requestId))
      problems.push(`the completed IDV request ${requestId}'s result is not in the case file`);
  }
  const banking = s.steps.banking;
  if (banking?.state === 'completed') {
    const held = ledgers.byCase.openBankingConnections.find(
      (c) => c.bank_connection_id === banking.providerIds.bank_connection_id,
    );
    if (held?.status !== 'Connected')
      problems.push(
        `the completed banking step holds connection ${banking.providerIds.bank_connection_id}, which the provider has as ${held?.status ?? 'nothing'}`,
      );
    if (evidence.bankAccounts.length === 0)
      problems.push(
        `the completed banking step's accounts (connection ${banking.providerIds.bank_connection_id}) are not in the case file`,
      );
  }
  const affordability = s.steps.affordability;
  if (
    affordability?.state === 'completed' &&
    !ledgers.byCase.affordabilityInsights.some((i) => i.request_id === affordability.providerIds.request_id)
  ) {
    problems.push(
      `the completed affordability step holds insight ${affordability.providerIds.request_id}, which the provider does not have`,
    );
  }
  if (
    affordability?.state === 'completed' &&
    !evidence.affordabilityInsights.some((i) => String(i.request_id) === affordability.providerIds.request_id)
  ) {
    problems.push(
      `the completed affordability insight ${affordability.providerIds.request_id} is not in the case file`,
    );
  }
  return problems;
}
