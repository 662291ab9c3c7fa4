/**
 * The case read model, the case parties and the audit trail on a case file of their own
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
    allSteps: true,
    reasons: [],
    operatorDeadline: null,
    stateSince: runStart,
    ...changes,
  };
}

/** The read model's per-step columns of a case: each step's provider ids and links. */
async function providerIdsAndLinks(caseId: string) {
  const { rows } = await store.pool.query('SELECT provider_ids, links FROM case_journeys WHERE case_id = $1', [caseId]);
  return rows[0] as { provider_ids: unknown; links: unknown };
}

it('keeps the newest state: a late write with an older version changes nothing, a repeat neither, a new run takes over', async () => {
  const caseId = randomUUID();
  expect(
    await store.writeJourneyState(
      write(caseId, 2, {
        state: 'needs_attention',
        steps: { banking: { state: 'failed', providerIds: { account_connection_id: 'a-1' } } },
      }),
    ),
  ).toBe(true);
  // The write of version 1 arrives late (its activity was retried): it must not bring `running` back.
  expect(await store.writeJourneyState(write(caseId, 1))).toBe(false);
  expect(await store.writeJourneyState(write(caseId, 2, { state: 'completed' }))).toBe(false);
  expect(await store.caseRecord(caseId)).toMatchObject({
    version: 2,
    state: 'needs_attention',
    steps: { banking: { state: 'failed' } },
    waitingSince: runStart,
  });

  // `journey retry`: a later run starts its versions at 1 again, and wins over the old run's last.
  const retried = write(caseId, 1, {
    runId: 'run-2',
    runStartedAt: '2026-11-21T10:00:00.000Z',
    stateSince: '2026-11-21T10:00:00.000Z',
  });
  expect(await store.writeJourneyState(retried)).toBe(true);
  expect(await store.writeJourneyState(write(caseId, 3, { state: 'cancelled', runStatus: 'COMPLETED' }))).toBe(false);
  expect(await store.caseRecord(caseId)).toMatchObject({
    runId: 'run-2',
    version: 1,
    state: 'running',
    startedAt: runStart,
    waitingSince: null,
    outcome: null,
  });
});

it("merges a write's steps onto its run's; takes another run's only with every step", async () => {
  const caseId = randomUUID();
  const picklist = [{ provider_id: 'CR-1', company_name: 'One' }];
  await store.writeJourneyState(
    write(caseId, 1, {
      steps: {
        'credit-report': { state: 'waiting', providerIds: { company_id: 'c-1' }, detail: { picklist } },
        banking: { state: 'running', providerIds: {} },
      },
    }),
  );
  // The run's next write carries only the step that changed.
  await store.writeJourneyState(
    write(caseId, 2, {
      allSteps: false,
      steps: {
        banking: { state: 'waiting', providerIds: { bank_connection_id: 'b-1' }, links: { bank: 'https://x' } },
      },
    }),
  );
  expect(await store.caseRecord(caseId)).toMatchObject({
    version: 2,
    steps: { 'credit-report': { state: 'waiting' }, banking: { state: 'waiting' } },
    picklist,
  });
  expect(await providerIdsAndLinks(caseId)).toEqual({
    provider_ids: { 'credit-report': { company_id: 'c-1' }, banking: { bank_connection_id: 'b-1' } },
    links: { 'credit-report': {}, banking: { bank: 'https://x' } },
  });
  // The same write again (its activity retried after it landed) changes nothing.
  expect(await store.writeJourneyState(write(caseId, 2, { allSteps: false, steps: {} }))).toBe(false);
  // The picklist goes with the credit report's wait, though the write carries no other step.
  const resolved = { 'credit-report': { state: 'completed', providerIds: { company_id: 'c-1' } } };
  expect(await store.writeJourneyState(write(caseId, 3, { allSteps: false, steps: resolved }))).toBe(true);
  expect(await store.caseRecord(caseId)).toMatchObject({
    version: 3,
    steps: { 'credit-report': { state: 'completed' }, banking: { state: 'waiting' } },
    picklist: null,
  });

  // A reset run knows what the run before it wrote and sends only what changed: refused, nothing changes.
  const resetRun = { runId: 'run-2', runStartedAt: '2026-11-21T10:00:00.000Z' };
  const changedOnly = write(caseId, 4, {
    ...resetRun,
    allSteps: false,
    steps: { banking: { state: 'failed', providerIds: {} } },
  });
  expect(await store.writeJourneyState(changedOnly)).toBe(false);
  expect(await store.caseRecord(caseId)).toMatchObject({
    runId: 'run-1',
    version: 3,
    steps: { banking: { state: 'waiting' } },
  });
  // Nor is such a write taken for a case with no row.
  const noRow = randomUUID();
  expect(await store.writeJourneyState(write(noRow, 2, { allSteps: false }))).toBe(false);
  expect(await store.caseRecord(noRow)).toBeUndefined();

  // A later run's write of every step takes over: nothing of the earlier run's stays.
  const everyStep = write(caseId, 5, { ...resetRun, steps: { banking: { state: 'running', providerIds: {} } } });
  expect(await store.writeJourneyState(everyStep)).toBe(true);
  const record = await store.caseRecord(caseId);
  expect(Object.keys(record!.steps)).toEqual(['banking']);
  expect(record!.picklist).toBeNull();
  expect(await providerIdsAndLinks(caseId)).toEqual({ provider_ids: { banking: {} }, links: { banking: {} } });
});

it('reads the steps back in the order the journey plans them, though jsonb stores them sorted by key length', async () => {
  const caseId = randomUUID();
  const step = { state: 'running', providerIds: {} };
  const planned = {
    'credit-report': step,
    'identity-verification/p-1': step,
    'identity-verification/p-2': step,
    banking: step,
    documents: step,
    'income-employer': step,
    affordability: step,
  };
  await store.writeJourneyState(write(caseId, 1, { steps: planned }));
  expect(Object.keys((await store.caseRecord(caseId))!.steps)).toEqual(Object.keys(planned));
});

it("keeps a closed run's final state with its outcome", async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(
    write(caseId, 7, {
      state: 'completed',
      runStatus: 'COMPLETED',
      stateSince: '2026-11-20T11:00:00.000Z',
      steps: { banking: { state: 'completed', providerIds: {} } },
    }),
  );
  expect(await store.caseRecord(caseId)).toMatchObject({
    state: 'completed',
    runStatus: 'COMPLETED',
    outcome: 'completed',
    closedAt: '2026-11-20T11:00:00.000Z',
  });
});

describe('the queue', () => {
  const tag = randomUUID().slice(0, 8);
  const cases = Array.from({ length: 5 }, () => randomUUID());
  /** Case i of the queue: started i minutes after the run, every other one needing attention. */
  const queueCase = (i: number) => {
    const started = new Date(Date.parse(runStart) + i * 60_000).toISOString();
    const attention = i % 2 === 0;
    return {
      runStartedAt: started,
      stateSince: started,
      state: attention ? ('needs_attention' as const) : ('running' as const),
      operatorDeadline: attention ? new Date(Date.parse(started) + (10 - i) * 3_600_000).toISOString() : null,
      steps: {
        [`identity-verification/p-${i}`]: {
          state: attention ? ('expired' as const) : ('waiting' as const),
          providerIds: {},
        },
        banking: { state: 'completed' as const, providerIds: {} },
      },
    };
  };
  beforeAll(async () => {
    for (const [i, caseId] of cases.entries()) {
      await store.writeJourneyState(write(caseId, 1, queueCase(i)));
      await store.recordParties(caseId, [
        { role: 'company', partyId: `c-${i}`, name: i === 3 ? `Grace 100%_Widgets ${tag}` : `Company ${i} ${tag}` },
        { role: 'applicant', partyId: `p-${i}`, name: i === 1 ? `Ada LOVELACE ${tag}` : `Person ${i} ${tag}` },
      ]);
    }
  });

  const ids = (page: { cases: { caseId: string }[] }) => page.cases.map((c) => c.caseId);

  it("finds a case by part of an applicant's or the company's name, whatever its case; % and _ are plain characters", async () => {
    expect(ids(await store.listCases({ name: `ada lovelace ${tag}` }))).toEqual([cases[1]]);
    expect(ids(await store.listCases({ name: `100%_widgets ${tag}` }))).toEqual([cases[3]]);
    expect(ids(await store.listCases({ name: `100_%widgets ${tag}` }))).toEqual([]);
    const found = await store.listCases({ name: `LOVELACE ${tag}` });
    expect(found.cases[0]).toMatchObject({
      company: `Company 1 ${tag}`,
      applicants: [{ personId: 'p-1', name: `Ada LOVELACE ${tag}` }],
    });
  });

  it('filters by state, by step kind and step state, and by how long a case has waited', async () => {
    const ours = async (query: Parameters<CaseFileStore['listCases']>[0]) =>
      ids(await store.listCases({ ...query, name: tag, limit: 500 }));
    expect(await ours({ state: 'needs_attention', sort: 'oldest' })).toEqual([cases[0], cases[2], cases[4]]);
    expect(await ours({ step: 'identity-verification', stepState: 'waiting', sort: 'oldest' })).toEqual([
      cases[1],
      cases[3],
    ]);
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
    expect(ids(await store.listCases({ name: tag, sort: 'deadline', limit: 3 }))).toEqual([
      cases[4],
      cases[2],
      cases[0],
    ]);
    const first = await store.listCases({ name: tag, sort: 'newest', limit: 2 });
    expect(ids(first)).toEqual([cases[4], cases[3]]);
    // A write to a case already shown changes nothing about the pages after it (a newer version of
    // the same state, so the other tests of this queue see it as they do in any order).
    await store.writeJourneyState(write(cases[4] as string, 2, queueCase(4)));
    const second = await store.listCases({ name: tag, sort: 'newest', limit: 2, cursor: first.nextCursor as string });
    const third = await store.listCases({ name: tag, sort: 'newest', limit: 2, cursor: second.nextCursor as string });
    expect([...ids(second), ...ids(third)]).toEqual([cases[2], cases[1], cases[0]]);
    expect(third.nextCursor).toBeNull();
    await expect(store.listCases({ cursor: 'not-a-cursor' })).rejects.toThrow(
      'the cursor is not one an earlier page answered',
    );
  });
});

describe("the queue's deadline", () => {
  const tag = randomUUID().slice(0, 8);
  const at = (hours: number) => new Date(Date.parse(runStart) + hours * 3_600_000).toISOString();
  const picklist = [
    { provider_id: 'CR-1', company_name: 'Ambiguous Foods Ltd' },
    { provider_id: 'CR-2', company_name: 'Ambiguous Foods Ltd (Trading)' },
  ];
  /** The credit report waiting on its picklist, whose wait expires at `expiresAt`. */
  const waitingOnPicklist = (expiresAt: string) => ({
    state: 'waiting',
    providerIds: { report_id: 'r-1' },
    detail: { picklist, report: null, resolvedBy: null, expiresAt },
  });
  const [attention, picklistCase, running, both] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()] as [
    string,
    string,
    string,
    string,
  ];

  beforeAll(async () => {
    const cases: [string, Partial<JourneyStateWrite>][] = [
      // Nothing runs: the journey waits for an operator until its operator deadline.
      [
        attention,
        { state: 'needs_attention', operatorDeadline: at(5), steps: { banking: { state: 'failed', providerIds: {} } } },
      ],
      // The commonest wait: a step runs (so no operator deadline), its picklist expires in 2 hours.
      [
        picklistCase,
        {
          state: 'needs_attention',
          steps: { 'credit-report': waitingOnPicklist(at(2)), banking: { state: 'waiting', providerIds: {} } },
        },
      ],
      [running, { state: 'running', steps: { banking: { state: 'waiting', providerIds: {} } } }],
      // Both: the earlier wins.
      [
        both,
        { state: 'needs_attention', operatorDeadline: at(3), steps: { 'credit-report': waitingOnPicklist(at(8)) } },
      ],
    ];
    for (const [caseId, changes] of cases) {
      await store.writeJourneyState(write(caseId, 1, changes));
      await store.recordParties(caseId, [{ role: 'company', partyId: `c-${caseId}`, name: `Deadline Co ${tag}` }]);
    }
  });

  const ids = (page: { cases: { caseId: string }[] }) => page.cases.map((c) => c.caseId);

  it("is the earlier of the operator deadline and a picklist wait's expiry; the deadline sort orders by it, cases without one last", async () => {
    expect(await store.caseRecord(picklistCase)).toMatchObject({ operatorDeadline: null, deadline: at(2) });
    expect(await store.caseRecord(both)).toMatchObject({ operatorDeadline: at(3), deadline: at(3) });
    expect(await store.caseRecord(attention)).toMatchObject({ operatorDeadline: at(5), deadline: at(5) });
    expect(await store.caseRecord(running)).toMatchObject({ operatorDeadline: null, deadline: null });

    const sorted = await store.listCases({ name: tag, sort: 'deadline' });
    expect(ids(sorted)).toEqual([picklistCase, both, attention, running]);
    expect(sorted.cases.map((c) => c.deadline)).toEqual([at(2), at(3), at(5), null]);
    // A page at a time by the same key.
    const first = await store.listCases({ name: tag, sort: 'deadline', limit: 1 });
    const rest = await store.listCases({ name: tag, sort: 'deadline', limit: 3, cursor: first.nextCursor as string });
    expect([...ids(first), ...ids(rest)]).toEqual([picklistCase, both, attention, running]);
  });

  it('goes with the wait: a resolved picklist has no deadline, a malformed expiry is ignored and the write still taken', async () => {
    // A name of its own: the test above sees the same four cases whichever runs first.
    const [resolved, own] = [randomUUID(), randomUUID().slice(0, 8)];
    await store.recordParties(resolved, [{ role: 'company', partyId: `c-${resolved}`, name: `Resolved Co ${own}` }]);
    await store.writeJourneyState(
      write(resolved, 1, { state: 'needs_attention', steps: { 'credit-report': waitingOnPicklist(at(1)) } }),
    );
    expect(await store.caseRecord(resolved)).toMatchObject({ deadline: at(1) });
    expect((await store.listCases({ name: own, sort: 'deadline' })).cases).toMatchObject([
      { caseId: resolved, deadline: at(1) },
    ]);
    await store.writeJourneyState(
      write(resolved, 2, {
        state: 'running',
        steps: {
          'credit-report': {
            state: 'running',
            providerIds: { report_id: 'r-1' },
            detail: { picklist, report: null, resolvedBy: 'operator' },
          },
        },
      }),
    );
    expect(await store.caseRecord(resolved)).toMatchObject({ state: 'running', deadline: null });

    const odd = randomUUID();
    expect(
      await store.writeJourneyState(
        write(odd, 1, {
          state: 'needs_attention',
          operatorDeadline: at(4),
          steps: { 'credit-report': waitingOnPicklist('next tuesday') },
        }),
      ),
    ).toBe(true);
    expect(await store.caseRecord(odd)).toMatchObject({ deadline: at(4) });
  });
});

it('appends every operator action to the audit trail in order, with its actor and outcome', async () => {
  const caseId = randomUUID();
  await store.appendAudit({
    caseId,
    actor: 'grace',
    action: 'waiveStep',
    step: 'banking',
    reason: 'statements by post',
    requestId: 'r-1',
    outcome: 'accepted',
  });
  await store.appendAudit({
    caseId,
    actor: 'ada',
    action: 'retryStep',
    step: 'banking',
    outcome: 'refused',
    message: 'banking is waived already',
  });
  const entries = await store.audit(caseId);
  expect(entries).toMatchObject([
    {
      actor: 'grace',
      action: 'waiveStep',
      step: 'banking',
      reason: 'statements by post',
      requestId: 'r-1',
      outcome: 'accepted',
      message: null,
    },
    { actor: 'ada', action: 'retryStep', outcome: 'refused', message: 'banking is waived already' },
  ]);
  expect(entries[0]!.at <= entries[1]!.at).toBe(true);
  expect((await store.timeline(caseId)).map((e) => e.kind)).toEqual(['operator_action', 'operator_action']);
});

it('purge erases the names of a case and keeps its state and its audit trail, with the personal fields blanked', async () => {
  const caseId = randomUUID();
  const idv = 'identity-verification/p-9';
  const waiver = 'waived: Grace Hopper sent her passport by post';
  await store.writeJourneyState(
    write(caseId, 1, {
      state: 'needs_attention',
      steps: {
        [idv]: {
          state: 'expired',
          providerIds: { request_id: 'idv-9' },
          reason: 'the request expired',
          links: { idv_link: 'https://idv.example/grace' },
          attempt: 1,
          attempts: [{ attempt: 1, state: 'expired', reason: 'the request expired' }],
        } as never,
        banking: {
          state: 'failed',
          providerIds: {},
          reason: 'the bank statement grace-hopper-march.pdf failed: unreadable',
          detail: { accounts: 1 },
          error: { status: 422, message: 'Grace Hopper: unreadable' },
        } as never,
      },
      reasons: [
        `${idv}: expired (the request expired)`,
        'banking: failed (the bank statement grace-hopper-march.pdf failed: unreadable)',
      ],
    }),
  );
  await store.writeJourneyState(
    write(caseId, 2, {
      state: 'cancelled',
      runStatus: 'COMPLETED',
      steps: {
        [idv]: {
          state: 'waived',
          providerIds: { request_id: 'idv-9' },
          reason: waiver,
          attempt: 1,
          attempts: [{ attempt: 1, state: 'waived', reason: waiver }],
        } as never,
        banking: {
          state: 'failed',
          providerIds: {},
          reason: 'the bank statement grace-hopper-march.pdf failed: unreadable',
          detail: { accounts: 1 },
          error: { status: 422, message: 'Grace Hopper: unreadable' },
        } as never,
      },
      reasons: [
        'cancelled: Grace Hopper withdrew',
        'banking: failed (the bank statement grace-hopper-march.pdf failed: unreadable)',
      ],
    }),
  );
  await store.recordParties(caseId, [
    { role: 'applicant', partyId: 'p-9', name: 'Grace Hopper' },
    { role: 'company', partyId: 'c-9', name: 'Hopper Compilers Ltd' },
  ]);
  const { CaseEventLog } = await import('../../case-file/caseEventLog');
  await new CaseEventLog(store.pool).logJourneyEvent({
    id: `evt_${caseId}`,
    caseId,
    type: 'case.cancelled',
    version: 1,
    occurredAt: runStart,
    data: { caseId, state: 'cancelled', reasons: ['cancelled: Grace Hopper withdrew'] },
  });
  const waived = await store.appendAudit({
    caseId,
    actor: 'ops-1',
    action: 'waiveStep',
    step: idv,
    reason: 'Grace Hopper sent her passport by post',
    requestId: 'r-9',
    outcome: 'accepted',
  });
  await store.appendAudit({ caseId, actor: 'ops-2', action: 'assign', assignee: 'ops-1', outcome: 'accepted' });
  await store.appendAudit({
    caseId,
    actor: 'ops-1',
    action: 'cancel',
    reason: 'Grace Hopper withdrew',
    requestId: 'r-10',
    outcome: 'accepted',
  });
  const { recordCaseStart, caseStartOf } = await import('../../case-file/caseStarts');
  await recordCaseStart(store.pool, {
    caseId,
    reference: 'APP-9',
    request: { caseId, reference: 'APP-9', people: [{ personId: 'p-9', name: 'Grace Hopper' }] },
  });
  const markBefore = (await store.caseMarks([caseId])).get(caseId);

  expect(await store.purge(caseId)).toMatchObject({
    case_parties: 2,
    case_journeys_blanked: 1,
    operator_audit_blanked: 3,
    case_starts_blanked: 1,
  });
  // The start keeps the lender's reference and no longer the request that named her.
  expect(await caseStartOf(store.pool, caseId)).toEqual({ caseId, reference: 'APP-9', request: { purged: true } });

  // The audit trail keeps who did what, when, with what outcome and under which request id; the reasons are gone.
  expect(await store.audit(caseId)).toEqual([
    {
      id: waived.id,
      at: waived.at,
      caseId,
      actor: 'ops-1',
      action: 'waiveStep',
      step: idv,
      assignee: null,
      reason: null,
      requestId: 'r-9',
      outcome: 'accepted',
      message: null,
    },
    expect.objectContaining({ actor: 'ops-2', action: 'assign', assignee: 'ops-1', reason: null, outcome: 'accepted' }),
    expect.objectContaining({ actor: 'ops-1', action: 'cancel', reason: null, requestId: 'r-10', outcome: 'accepted' }),
  ]);
  // The read model keeps ids, states and attempts, no names and no free text.
  const record = await store.caseRecord(caseId);
  expect(record).toMatchObject({
    state: 'cancelled',
    outcome: 'cancelled',
    company: null,
    applicants: [],
    picklist: null,
    reasons: ['banking: failed'],
  });
  expect(record?.steps[idv]).toMatchObject({
    state: 'waived',
    providerIds: { request_id: 'idv-9' },
    reason: null,
    links: {},
    attempts: [{ attempt: 1, state: 'waived', reason: null }],
  });
  expect(record?.steps.banking).toMatchObject({
    state: 'failed',
    reason: null,
    detail: null,
    error: { status: 422, message: '' },
  });
  expect((await store.caseMarks([caseId])).get(caseId)).not.toEqual(markBefore);
  expect((await store.listCases({ name: 'Grace Hopper' })).cases.map((c) => c.caseId)).not.toContain(caseId);
  expect((await store.listCases({ name: 'Hopper Compilers' })).cases.map((c) => c.caseId)).not.toContain(caseId);
  // Nothing the case file keeps of the case names her, whatever the table.
  const tables = [
    'case_journeys',
    'operator_audit',
    'case_events',
    'case_parties',
    'case_notifications',
    'case_starts',
  ];
  for (const table of tables) {
    const { rows } = await store.pool.query(
      `SELECT count(*)::int AS n FROM ${table} t WHERE t.case_id = $1 AND row_to_json(t)::text ILIKE '%hopper%'`,
      [caseId],
    );
    expect([table, rows[0].n]).toEqual([table, 0]);
  }
  // The events keep their ids and types: the LOS's record of what it was told stays whole.
  const { rows: events } = await store.pool.query(
    'SELECT type, data FROM case_events WHERE case_id = $1 ORDER BY position',
    [caseId],
  );
  expect(events.map((e: { type: string }) => e.type)).toEqual([
    'case.step_expired',
    'case.cancelled',
    'case.operator_action',
    'case.operator_action',
    'case.operator_action',
  ]);
  expect(events[0].data).toMatchObject({ step: { key: idv, attempt: 1 }, reason: null });
  expect(events[1].data).toMatchObject({ state: 'cancelled', reasons: [] });
});

/** Runs one statement in a transaction rolled back after it: refused or not, it changes nothing the other tests see. */
async function attempt(sql: string, params: unknown[] = []): Promise<void> {
  const client = await store.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(sql, params);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

it('the database refuses to change or remove an audit entry, whoever asks; erasure still blanks its reason and message', async () => {
  const caseId = randomUUID();
  const entry = await store.appendAudit({
    caseId,
    actor: 'grace',
    action: 'waiveStep',
    step: 'banking',
    reason: 'Ada Lovelace posted her statements',
    requestId: 'r-20',
    outcome: 'accepted',
  });
  const refused = /operator_audit is append-only/;
  await expect(attempt('DELETE FROM operator_audit WHERE id = $1', [entry.id])).rejects.toThrow(refused);
  await expect(attempt('TRUNCATE operator_audit')).rejects.toThrow(refused);
  await expect(attempt("UPDATE operator_audit SET actor = 'mallory' WHERE id = $1", [entry.id])).rejects.toThrow(
    refused,
  );
  await expect(
    attempt("UPDATE operator_audit SET outcome = 'refused', message = NULL, reason = NULL WHERE id = $1", [entry.id]),
  ).rejects.toThrow(refused);
  await expect(
    attempt("UPDATE operator_audit SET reason = 'nothing to see' WHERE id = $1", [entry.id]),
  ).rejects.toThrow(refused);
  expect(await store.audit(caseId)).toEqual([entry]);

  expect(await store.purge(caseId)).toMatchObject({ operator_audit_blanked: 1 });
  expect(await store.audit(caseId)).toEqual([{ ...entry, reason: null, message: null }]);
});
