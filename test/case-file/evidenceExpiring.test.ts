/**
 * `case.evidence_expiring` on a case file of its own: the sweep sends one per item of a case's
 * evidence (case, step, validUntil) once the item is within the lead time of going stale, for
 * closed cases as for running ones; not before, and not again however often it sweeps. The lead
 * time is the deployment's setting (CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE).
 */
import { randomUUID } from 'node:crypto';
import { caseEventListSchema } from '../../case-api/caseEventSchemas';
import { CaseEventLog } from '../../case-file/caseEventLog';
import { sweepCaseEvents } from '../../case-file/caseEventSweep';
import { recordCaseStart } from '../../case-file/caseStarts';
import type { JourneyStateWrite } from '../../case-file/caseReadModel';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { readCaseEventsConfig } from '../../case-events/caseEventsConfig';
import type { EvidenceValidity } from '../../client/evidenceValidity';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';

let caseFile: CaseFileProcess;
let store: CaseFileStore;
let log: CaseEventLog;
beforeAll(async () => {
  caseFile = await startCaseFileProcess();
  store = await openCaseFile(caseFile.url, 1);
  log = new CaseEventLog(store.pool);
});
afterAll(async () => {
  await store?.close();
  await caseFile?.stop();
});

const hour = 3_600_000;
const day = 24 * hour;
const lead = 3 * day;
const idv = 'identity-verification/p-1';

/** Reminders and SLA breaches far off: only the evidence's events can come. */
const sweep = (evidenceExpiringBeforeMs: number) => {
  const defaults = { actionDueAfterMs: day, actionDueEveryMs: day, attentionSlaMs: day, evidenceExpiringBeforeMs };
  return log.run((c) => sweepCaseEvents(c, defaults));
};

const validity = (kind: EvidenceValidity['kind'], validUntil: Date): EvidenceValidity => ({
  kind,
  measuredFrom: new Date(validUntil.getTime() - 30 * day).toISOString(),
  dateFrom: 'provider',
  validUntil: validUntil.toISOString(),
  stale: false,
  refreshes: 0,
});

/** A read-model row whose steps carry their evidence, as the journey reports it. */
function closedCase(caseId: string, evidence: Record<string, EvidenceValidity>): JourneyStateWrite {
  const now = new Date().toISOString();
  const steps = Object.fromEntries(
    Object.entries(evidence).map(([key, item]) => [key, { state: 'completed', providerIds: {}, evidence: item }]),
  );
  return {
    caseId,
    workflowId: `case/${caseId}`,
    runId: 'run-1',
    runStartedAt: now,
    version: 1,
    state: 'completed',
    runStatus: 'COMPLETED',
    steps,
    allSteps: true,
    reasons: [],
    operatorDeadline: null,
    stateSince: now,
  };
}

const expiring = async (caseId: string) =>
  (await log.list(caseId)).filter((e) => e.type === 'case.evidence_expiring').map((e) => e.data);

it('an item within the lead time of going stale is one case.evidence_expiring, however often the sweep runs', async () => {
  const caseId = randomUUID();
  await recordCaseStart(store.pool, { caseId, reference: 'APP-77', request: {} });
  const idvUntil = new Date(Date.now() + lead - hour);
  const reportUntil = new Date(Date.now() + lead + hour);
  await store.writeJourneyState(
    closedCase(caseId, {
      [idv]: validity('identityVerification', idvUntil),
      'credit-report': validity('creditReport', reportUntil),
    }),
  );
  await Promise.all([sweep(lead), sweep(lead), sweep(lead)]);
  expect(await expiring(caseId)).toEqual([
    {
      caseId,
      workflowId: `case/${caseId}`,
      runId: 'run-1',
      step: idv,
      kind: 'identityVerification',
      validUntil: idvUntil.toISOString(),
      expiringBeforeMs: lead,
      reference: 'APP-77',
    },
  ]);
  // The credit report comes within a longer lead time: its own event, the first one not again.
  await sweep(lead + 2 * hour);
  await sweep(lead + 2 * hour);
  expect((await expiring(caseId)).map((d) => [d.step, d.kind])).toEqual([
    [idv, 'identityVerification'],
    ['credit-report', 'creditReport'],
  ]);
  // As `GET /v1/cases/{caseId}/events` lists them: its documented schema holds.
  const events = (await log.list(caseId)).map((e) => ({
    id: e.id,
    type: e.type,
    version: e.version,
    timestamp: e.occurredAt,
    data: e.data,
    deliveredAt: e.deliveredAt,
  }));
  expect(caseEventListSchema.safeParse({ caseId, events }).error).toBeUndefined();
});

it('an item renewed with a later validUntil is expiring again when that one comes near; a running case too', async () => {
  const caseId = randomUUID();
  const first = new Date(Date.now() + hour);
  const write = closedCase(caseId, { banking: validity('bankTransactions', first) });
  await store.writeJourneyState({ ...write, state: 'running', runStatus: 'RUNNING' });
  await sweep(lead);
  const renewed = new Date(Date.now() + 10 * day);
  const later = closedCase(caseId, { banking: validity('bankTransactions', renewed) });
  await store.writeJourneyState({ ...later, version: 2, state: 'running', runStatus: 'RUNNING' });
  await sweep(lead);
  expect((await expiring(caseId)).map((d) => d.validUntil)).toEqual([first.toISOString()]);
  await sweep(11 * day);
  expect((await expiring(caseId)).map((d) => d.validUntil)).toEqual([first.toISOString(), renewed.toISOString()]);
});

it('a case without evidence, or with items far from stale, gets no case.evidence_expiring', async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(
    closedCase(caseId, { 'credit-report': validity('creditReport', new Date(Date.now() + 30 * day)) }),
  );
  await sweep(lead);
  expect(await expiring(caseId)).toEqual([]);
});

it('the lead time is CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE, a duration, 3 days by default; a bad value names it', () => {
  expect(readCaseEventsConfig({})).toMatchObject({ evidenceExpiringBeforeMs: 3 * day });
  expect(readCaseEventsConfig({ CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE: '12 hours' })).toMatchObject({
    evidenceExpiringBeforeMs: 12 * hour,
  });
  expect(() => readCaseEventsConfig({ CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE: 'soon' })).toThrow(
    /CASE_EVENTS_EVIDENCE_EXPIRING_BEFORE/,
  );
});
