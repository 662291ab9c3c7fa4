/**
 * Assignment of cases on a case file of its own: assign and release are audited with
 * their actor in the same transaction, the journey's later writes keep the assignee, the queue
 * filters on it, and the marks the console's live updates wait on change with each write.
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
const write = (caseId: string, version: number, state = 'running'): JourneyStateWrite => ({
  caseId,
  workflowId: `case/${caseId}`,
  runId: 'run-1',
  runStartedAt: runStart,
  version,
  state,
  runStatus: 'RUNNING',
  steps: { banking: { state: 'running', providerIds: {} } },
  allSteps: true,
  reasons: [],
  operatorDeadline: null,
  stateSince: runStart,
});

it("assigns and releases a case, each audited with its actor, and the journey's writes keep the assignee", async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(write(caseId, 1));
  const assigned = await store.assignCase({ caseId, assignee: 'grace', actor: 'ada', reason: 'she knows the company' });
  expect(assigned?.assignment).toMatchObject({ caseId, assignee: 'grace' });
  expect(assigned?.assignment.assignedAt).toEqual(expect.any(String));
  await store.writeJourneyState(write(caseId, 2, 'needs_attention'));
  expect(await store.caseRecord(caseId)).toMatchObject({ state: 'needs_attention', assignee: 'grace' });

  await store.assignCase({ caseId, assignee: null, actor: 'grace', reason: null });
  expect(await store.caseRecord(caseId)).toMatchObject({ assignee: null, assignedAt: null });
  expect(await store.audit(caseId)).toMatchObject([
    { action: 'assign', actor: 'ada', assignee: 'grace', reason: 'she knows the company', outcome: 'accepted' },
    { action: 'release', actor: 'grace', assignee: null, reason: null, outcome: 'accepted' },
  ]);
});

it('answers undefined for a case the read model does not hold, and audits nothing', async () => {
  const caseId = randomUUID();
  expect(await store.assignCase({ caseId, assignee: 'ada', actor: 'ada', reason: null })).toBeUndefined();
  expect(await store.audit(caseId)).toEqual([]);
});

it('filters the queue by assignee, and the empty assignee by cases nobody owns', async () => {
  const [mine, theirs, nobodys] = [randomUUID(), randomUUID(), randomUUID()];
  for (const caseId of [mine, theirs, nobodys]) await store.writeJourneyState(write(caseId, 1));
  const owner = `ada-${randomUUID()}`;
  await store.assignCase({ caseId: mine, assignee: owner, actor: owner, reason: null });
  await store.assignCase({ caseId: theirs, assignee: `grace-${randomUUID()}`, actor: owner, reason: null });
  expect((await store.listCases({ assignee: owner })).cases.map((c) => c.caseId)).toEqual([mine]);
  const unowned = (await store.listCases({ assignee: '', limit: 500 })).cases.map((c) => c.caseId);
  expect(unowned).toContain(nobodys);
  expect(unowned).not.toContain(mine);
  expect(unowned).not.toContain(theirs);
});

it("changes a case's mark and the queue's at every write, assignment and audit entry, and not otherwise", async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(write(caseId, 1));
  const marks = async () => [(await store.caseMarks([caseId])).get(caseId), await store.queueMark()];
  const first = await marks();
  expect(await marks()).toEqual(first);
  await store.writeJourneyState(write(caseId, 2));
  const second = await marks();
  expect(second[0]).not.toBe(first[0]);
  expect(second[1]).not.toBe(first[1]);
  // A late write changes nothing, so neither mark moves.
  await store.writeJourneyState(write(caseId, 1));
  expect(await marks()).toEqual(second);
  await store.assignCase({ caseId, assignee: 'ada', actor: 'ada', reason: null });
  const third = await marks();
  expect(third[0]).not.toBe(second[0]);
  // A refused action changes no state but shows on the timeline: the case's mark moves.
  await store.appendAudit({
    caseId,
    actor: 'ada',
    action: 'waiveStep',
    step: 'banking',
    reason: 'x',
    outcome: 'refused',
    message: 'no',
  });
  expect((await store.caseMarks([caseId])).get(caseId)).not.toBe(third[0]);
});
