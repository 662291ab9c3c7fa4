/**
 * The events derived from the case file on a case file of its own: an expired step and
 * an accepted operator action make one event each, however often the row is written; reminders and
 * SLA breaches come from the sweep, once each however often it runs (several workers sweep), and
 * stop when the step stops waiting; a case's own times win over the defaults.
 */
import { randomUUID } from 'node:crypto';
import { CaseEventLog } from '../../case-file/caseEventLog';
import { sweepCaseEvents, type SweepDefaults } from '../../case-file/caseEventSweep';
import type { JourneyStateWrite } from '../../case-file/caseReadModel';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
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

const day = 86_400_000;
const never: SweepDefaults = { actionDueAfterMs: day, actionDueEveryMs: day, attentionSlaMs: day };
const sweep = (defaults: SweepDefaults = never) => log.run((c) => sweepCaseEvents(c, defaults));
const typesOf = async (caseId: string) => (await log.list(caseId)).map((e) => e.type);
const idv = 'identity-verification/p-1';

function write(
  caseId: string,
  version: number,
  step: Record<string, unknown>,
  changes: Partial<JourneyStateWrite> = {},
): JourneyStateWrite {
  const now = new Date().toISOString();
  return {
    caseId,
    workflowId: `case/${caseId}`,
    runId: 'run-1',
    runStartedAt: now,
    version,
    state: 'running',
    runStatus: 'RUNNING',
    steps: { [idv]: { providerIds: {}, attempt: 1, ...step } as never },
    allSteps: true,
    reasons: [],
    operatorDeadline: null,
    stateSince: now,
    ...changes,
  };
}

it('an expired step attempt is one case.step_expired, written once however often the row is', async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(write(caseId, 1, { state: 'running' }));
  expect(await typesOf(caseId)).toEqual([]);
  await store.writeJourneyState(write(caseId, 2, { state: 'expired', reason: 'the request expired' }));
  await store.writeJourneyState(
    write(caseId, 3, { state: 'expired', reason: 'the request expired' }, { state: 'needs_attention' }),
  );
  const events = await log.list(caseId);
  expect(events.map((e) => [e.type, e.data])).toEqual([
    [
      'case.step_expired',
      {
        caseId,
        workflowId: `case/${caseId}`,
        runId: 'run-1',
        step: { key: idv, attempt: 1 },
        reason: 'the request expired',
      },
    ],
  ]);
  expect(events[0]!.id).toMatch(/^evt_[0-9a-f]{32}$/);
  // The next attempt expiring is another event.
  await store.writeJourneyState(write(caseId, 4, { state: 'expired', attempt: 2 }));
  expect(await typesOf(caseId)).toEqual(['case.step_expired', 'case.step_expired']);
});

it('an accepted operator action is a case.operator_action without its reason; a refused one is none', async () => {
  const caseId = randomUUID();
  await store.appendAudit({
    caseId,
    actor: 'ops-team',
    action: 'waiveStep',
    step: idv,
    reason: 'Ada Lovelace called',
    outcome: 'accepted',
  });
  await store.appendAudit({
    caseId,
    actor: 'ops-team',
    action: 'retryStep',
    step: idv,
    outcome: 'refused',
    message: 'not now',
  });
  const events = await log.list(caseId);
  expect(events.map((e) => e.type)).toEqual(['case.operator_action']);
  expect(events[0]!.data).toMatchObject({ caseId, actor: 'ops-team', action: 'waiveStep', step: idv, requestId: null });
  expect(JSON.stringify(events[0])).not.toContain('Ada');
});

it('a step waiting with a link is reminded once per interval, by any number of sweeps, until it stops waiting', async () => {
  const caseId = randomUUID();
  await store.writeJourneyState(
    write(caseId, 1, { state: 'waiting', links: { identity_link: 'https://idv.example/x' } }),
  );
  await sweep();
  expect(await typesOf(caseId)).toEqual([]);
  const fast = { actionDueAfterMs: 1, actionDueEveryMs: day, attentionSlaMs: day };
  await Promise.all([sweep(fast), sweep(fast), sweep(fast)]);
  const events = await log.list(caseId);
  expect(events.map((e) => [e.type, e.data.reminder, e.data.step])).toEqual([
    ['case.applicant_action_due', 1, { key: idv, attempt: 1 }],
  ]);
  // The applicant acted: no more reminders for that attempt.
  await store.writeJourneyState(write(caseId, 2, { state: 'completed' }));
  await sweep({ ...fast, actionDueEveryMs: 1 });
  expect(await typesOf(caseId)).toEqual(['case.applicant_action_due']);
});

it('a case needing attention past its own SLA is one case.sla_breached; the default SLA is not reached', async () => {
  const [own, byDefault] = [randomUUID(), randomUUID()];
  await log.recordSettings(own, { attentionSlaMs: 1 });
  const since = new Date(Date.now() - 60_000).toISOString();
  for (const caseId of [own, byDefault])
    await store.writeJourneyState(
      write(caseId, 1, { state: 'failed' }, { state: 'needs_attention', stateSince: since }),
    );
  await sweep();
  await sweep();
  expect(await typesOf(own)).toEqual(['case.sla_breached']);
  expect((await log.list(own))[0]!.data).toMatchObject({ caseId: own, slaMs: 1 });
  expect(await typesOf(byDefault)).toEqual([]);
});

it('the timeline shows each derived event once the LOS took it, when it took it, in time order, with its type and step and none of its data', async () => {
  const caseId = randomUUID();
  // A run of its own: a step expiry's event id is derived from the run, the step and the attempt.
  await store.writeJourneyState(
    write(caseId, 1, { state: 'expired', reason: 'Ada Lovelace did not open her link' }, { runId: randomUUID() }),
  );
  await store.appendAudit({
    caseId,
    actor: 'ops-team',
    action: 'retryStep',
    step: idv,
    reason: 'Ada Lovelace asked again',
    outcome: 'accepted',
  });
  // The journey's own event is on the timeline as a notification (case_notifications), not twice.
  await log.logJourneyEvent({
    id: `evt_journey_${caseId}`,
    caseId,
    type: 'case.needs_attention',
    version: 1,
    occurredAt: new Date().toISOString(),
    data: { caseId },
  });
  await log.markDelivered(`evt_journey_${caseId}`);
  const derived = async () => (await store.timeline(caseId)).filter((e) => e.kind === 'case_event');
  // Not yet taken by the LOS: not on the timeline.
  expect(await derived()).toEqual([]);

  const [expired, action] = await log
    .list(caseId)
    .then((events) => events.filter((e) => e.type !== 'case.needs_attention'));
  expect([expired!.type, action!.type]).toEqual(['case.step_expired', 'case.operator_action']);
  // Taken in the other order than recorded: the timeline follows when the LOS took them.
  await log.markDelivered(action!.id);
  await log.markDelivered(expired!.id);
  const delivered = new Map((await log.list(caseId)).map((e) => [e.id, e.deliveredAt]));
  expect(await derived()).toEqual([
    { kind: 'case_event', at: delivered.get(action!.id), type: 'case.operator_action', eventId: action!.id, step: idv },
    { kind: 'case_event', at: delivered.get(expired!.id), type: 'case.step_expired', eventId: expired!.id, step: idv },
  ]);
  const timeline = await store.timeline(caseId);
  expect(timeline.map((e) => e.kind)).toEqual(['operator_action', 'case_event', 'case_event']);
  const times = timeline.map((e) => e.at);
  expect(times).toEqual([...times].sort());
  expect(JSON.stringify(await derived())).not.toContain('Ada');
});
