/**
 * The case read model, the case parties and the audit trail (issue 22) on a case file of their own
 * (an embedded PGlite in a process of its own): ordered writes, the queue's filters and cursor, and
 * the append-only audit in order.
 */
import { randomUUID } from 'node:crypto';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import type { JourneyStateWrite } from '../../case-file/caseReadModel';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';

let caseFile: CaseFileProcess;
let store: CaseFileStore;
beforeAll(async () => {
  caseFile = await startCaseFileProcess();
  store = await openCaseFile(caseFile.url, 1);
});
afterAll(async () => {
  await store?.close();
  await caseFile?.stop();
});

const runStart = '2026-11-20T10:00:00.000Z';

function write(caseId: string, version: number, changes: Partial<JourneyStateWrite> = {}): JourneyStateWrite {
  return {
    caseId,
    workflowId: `case/${caseId}`,
    runId: 'run-1',
    runStartedAt: runStart,
    version,
    state: 'running',
    runStatus: 'RUNNING',
    steps: { banking: { state: 'running', providerIds: {} } },
    reasons: [],
    operatorDeadline: null,
    stateSince: runStart,
    ...changes,
  };
}

it('keeps the newest state: a late write with an older version changes nothing, a repeat neither, a new run takes over', async () => {
  const caseId = randomUUID();
  expect(await store.writeJourneyState(write(caseId, 2, { state: 'needs_attention', steps: { banking: { state: 'failed', providerIds: { account_connection_id: 'a-1' } } } }))).toBe(true);
  // The write of version 1 arrives late (its activity was retried): it must not bring `running` back.
  expect(await store.writeJourneyState(write(caseId, 1))).toBe(false);
  expect(await store.writeJourneyState(write(caseId, 2, { state: 'completed' }))).toBe(false);
  expect(await store.caseRecord(caseId)).toMatchObject({ version: 2, state: 'needs_attention', steps: { banking: { state: 'failed' } }, waitingSince: runStart });

  // `journey retry`: a later run starts its versions at 1 again, and wins over the old run's last.
  const retried = write(caseId, 1, { runId: 'run-2', runStartedAt: '2026-11-21T10:00:00.000Z', stateSince: '2026-11-21T10:00:00.000Z' });
  expect(await store.writeJourneyState(retried)).toBe(true);
  expect(await store.writeJourneyState(write(caseId, 3, { state: 'cancelled', runStatus: 'COMPLETED' }))).toBe(false);
  expect(await store.caseRecord(caseId)).toMatchObject({ runId: 'run-2', version: 1, state: 'running', startedAt: runStart, waitingSince: null, outcome: null });
});

it('keeps a closed run\'s final state with its outcome', async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(write(caseId, 7, { state: 'completed', runStatus: 'COMPLETED', stateSince: '2026-11-20T11:00:00.000Z', steps: { banking: { state: 'completed', providerIds: {} } } }));
  expect(await store.caseRecord(caseId)).toMatchObject({ state: 'completed', runStatus: 'COMPLETED', outcome: 'completed', closedAt: '2026-11-20T11:00:00.000Z' });
});

describe('the queue', () => {
  const tag = randomUUID().slice(0, 8);
  const cases = Array.from({ length: 5 }, () => randomUUID());
  beforeAll(async () => {
    for (const [i, caseId] of cases.entries()) {
      const started = new Date(Date.parse(runStart) + i * 60_000).toISOString();
      const attention = i % 2 === 0;
      await store.writeJourneyState(
        write(caseId, 1, {
          runStartedAt: started,
          stateSince: started,
          state: attention ? 'needs_attention' : 'running',
          operatorDeadline: attention ? new Date(Date.parse(started) + (10 - i) * 3_600_000).toISOString() : null,
          steps: { [`identity-verification/p-${i}`]: { state: attention ? 'expired' : 'waiting', providerIds: {} }, banking: { state: 'completed', providerIds: {} } },
        }),
      );
      await store.recordParties(caseId, [
        { role: 'company', partyId: `c-${i}`, name: i === 3 ? `Grace 100%_Widgets ${tag}` : `Company ${i} ${tag}` },
        { role: 'applicant', partyId: `p-${i}`, name: i === 1 ? `Ada LOVELACE ${tag}` : `Person ${i} ${tag}` },
      ]);
    }
  });

  const ids = (page: { cases: { caseId: string }[] }) => page.cases.map((c) => c.caseId);

  it('finds a case by part of an applicant\'s or the company\'s name, whatever its case; % and _ are plain characters', async () => {
    expect(ids(await store.listCases({ name: `ada lovelace ${tag}` }))).toEqual([cases[1]]);
    expect(ids(await store.listCases({ name: `100%_widgets ${tag}` }))).toEqual([cases[3]]);
    expect(ids(await store.listCases({ name: `100_%widgets ${tag}` }))).toEqual([]);
    const found = await store.listCases({ name: `LOVELACE ${tag}` });
    expect(found.cases[0]).toMatchObject({ company: `Company 1 ${tag}`, applicants: [{ personId: 'p-1', name: `Ada LOVELACE ${tag}` }] });
  });

  it('filters by state, by step kind and step state, and by how long a case has waited', async () => {
    const ours = async (query: Parameters<CaseFileStore['listCases']>[0]) => ids(await store.listCases({ ...query, name: tag, limit: 500 }));
    expect(await ours({ state: 'needs_attention', sort: 'oldest' })).toEqual([cases[0], cases[2], cases[4]]);
    expect(await ours({ step: 'identity-verification', stepState: 'waiting', sort: 'oldest' })).toEqual([cases[1], cases[3]]);
    expect(await ours({ step: 'banking', stepState: 'waiting' })).toEqual([]);
    const now = new Date(Date.parse(runStart) + 3 * 60_000);
    const waited = await store.pool.connect().then(async (c) => {
      try {
        const { listCaseRecords } = await import('../../case-file/caseQueue');
        return ids(await listCaseRecords(c, { name: tag, waitingLongerThanMs: 60_000, sort: 'oldest' }, now));
      } finally {
        c.release();
      }
    });
    expect(waited).toEqual([cases[0], cases[2]]);
  });

  it('sorts by deadline and pages with a cursor that neither repeats nor skips a case written meanwhile', async () => {
    expect(ids(await store.listCases({ name: tag, sort: 'deadline', limit: 3 }))).toEqual([cases[4], cases[2], cases[0]]);
    const first = await store.listCases({ name: tag, sort: 'newest', limit: 2 });
    expect(ids(first)).toEqual([cases[4], cases[3]]);
    // A write to a case already shown changes nothing about the pages after it.
    await store.writeJourneyState(write(cases[4] as string, 2, { runStartedAt: new Date(Date.parse(runStart) + 4 * 60_000).toISOString(), state: 'completed' }));
    const second = await store.listCases({ name: tag, sort: 'newest', limit: 2, cursor: first.nextCursor as string });
    const third = await store.listCases({ name: tag, sort: 'newest', limit: 2, cursor: second.nextCursor as string });
    expect([...ids(second), ...ids(third)]).toEqual([cases[2], cases[1], cases[0]]);
    expect(third.nextCursor).toBeNull();
    await expect(store.listCases({ cursor: 'not-a-cursor' })).rejects.toThrow('the cursor is not one an earlier page answered');
  });
});

it('appends every operator action to the audit trail in order, with its actor and outcome', async () => {
  const caseId = randomUUID();
  await store.appendAudit({ caseId, actor: 'grace', action: 'waiveStep', step: 'banking', reason: 'statements by post', requestId: 'r-1', outcome: 'accepted' });
  await store.appendAudit({ caseId, actor: 'ada', action: 'retryStep', step: 'banking', outcome: 'refused', message: 'banking is waived already' });
  const entries = await store.audit(caseId);
  expect(entries).toMatchObject([
    { actor: 'grace', action: 'waiveStep', step: 'banking', reason: 'statements by post', requestId: 'r-1', outcome: 'accepted', message: null },
    { actor: 'ada', action: 'retryStep', outcome: 'refused', message: 'banking is waived already' },
  ]);
  expect(entries[0]!.at <= entries[1]!.at).toBe(true);
  expect((await store.timeline(caseId)).map((e) => e.kind)).toEqual(['operator_action', 'operator_action']);
});

it('purge erases the names of a case and keeps its state and its audit trail', async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(write(caseId, 1, { state: 'cancelled', runStatus: 'COMPLETED' }));
  await store.recordParties(caseId, [{ role: 'applicant', partyId: 'p-9', name: 'Grace Hopper' }]);
  await store.appendAudit({ caseId, actor: 'ops-1', action: 'cancel', reason: 'withdrawn', outcome: 'accepted' });
  expect(await store.purge(caseId)).toMatchObject({ case_parties: 1 });
  expect(await store.caseRecord(caseId)).toMatchObject({ state: 'cancelled', applicants: [] });
  expect((await store.listCases({ name: 'Grace Hopper' })).cases.map((c) => c.caseId)).not.toContain(caseId);
  expect(await store.audit(caseId)).toMatchObject([{ actor: 'ops-1', action: 'cancel', outcome: 'accepted' }]);
});
