/**
 * Determinism: every recorded history (test/replay/histories, from `npm run record-histories`)
 * replays on the current workflow code; a change in command order fails unless behind `patched()`.
 * The recorded histories are json/plain (written before encryption); they replay through the
 * project's data converter, whose codec passes unencrypted payloads through.
 */
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { readHistories } from './historyFiles';

const histories = readHistories();
const identityHistories = histories.filter((h) => h.file.includes('-idv-resubmission__') && h.workflowId.startsWith('idv/'));
const workflowType = (h: (typeof histories)[number]) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
const generation = (h: (typeof histories)[number]): string => h.file.split('-')[0] ?? '';
/** Every IDV step history: standalone and the journeys' children, per generation. */
const idvStepHistories = (gen: string) => histories.filter((h) => generation(h) === gen && workflowType(h) === 'identityVerificationWorkflow');

async function replay(workflowBundle: WorkflowBundleOption, subset = histories) {
  const results: { file: string; error?: unknown }[] = [];
  const files = new Map(subset.map((h) => [h.workflowId, h.file]));
  for await (const result of Worker.runReplayHistories({ workflowBundle, dataConverter: dataConverterFor(readPayloadKeys()) }, subset)) {
    results.push({ file: files.get(result.workflowId) ?? result.workflowId, error: result.error });
  }
  return results;
}

const bundle = (file: string) => bundleWorkflowCode({ workflowsPath: require.resolve(file), logger: new DefaultLogger('WARN') }).then(({ code }) => ({ code }));

test('the recorded histories cover the journey, every step type and resource workflows', () => {
  const types = new Set(histories.map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
  expect([...types].sort()).toEqual(
    ['affordabilityWorkflow', 'bankingWorkflow', 'creditReportWorkflow', 'documentsWorkflow', 'identityVerificationWorkflow', 'incomeEmployerWorkflow', 'onboardCase', 'resourceWorkflow'].sort(),
  );
  expect(identityHistories.length).toBeGreaterThan(0);
});

test('the later generation of histories went through the patched code paths', () => {
  const patchIds = new Set<string>();
  for (const { history } of histories) {
    for (const event of history.events ?? []) {
      const data = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
      if (data) patchIds.add((JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id);
    }
  }
  expect([...patchIds].sort()).toEqual(['bounded-unrouted-log', 'lean-histories', 'lean-histories-2', 'lean-histories-3', 'notify-los', 'operator-recovery', 'replan-on-subscribe', 'step-reports-on-change', 'wake-on-delivery']);
});

/** The patch ids a history recorded, in order. */
const patchesOf = (h: (typeof histories)[number]): string[] =>
  (h.history.events ?? []).flatMap((event) => {
    const data = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return data ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id] : [];
  });

test('since v6 every workflow records one lean patch and no other (one marker instead of one per older patch)', () => {
  const leanPatch: Record<string, string> = { v6: 'lean-histories', v7: 'lean-histories-2', v8: 'lean-histories-3' };
  for (const [gen, patch] of Object.entries(leanPatch)) {
    const lean = histories.filter((h) => generation(h) === gen);
    expect(lean.length).toBeGreaterThan(0);
    for (const h of lean) expect({ file: h.file, patches: patchesOf(h) }).toEqual({ file: h.file, patches: [patch] });
  }
  for (const h of histories.filter((x) => !(generation(x) in leanPatch))) expect(patchesOf(h)).not.toContain('lean-histories');
});

test('since v7 a resource whose outcome reached its subscriber ends after its quiet time', () => {
  const closed = histories.filter((h) => /^v[78]-resource-closed-after-outcome__/.test(h.file));
  expect(closed).toHaveLength(2);
  for (const h of closed) {
    const events = h.history.events ?? [];
    expect(events.some((e) => e.externalWorkflowExecutionSignaledEventAttributes)).toBe(true);
    expect(events.at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
  }
});

test('since v8 a subscriber that comes after both deliveries of an occurrence is replayed one of them', () => {
  const replayed = histories.filter((h) => h.file.startsWith('v8-resource-replayed-per-occurrence__'));
  expect(replayed).toHaveLength(1);
  const events = replayed[0]!.history.events ?? [];
  expect(events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'deliver')).toHaveLength(2);
  expect(events.filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes)).toHaveLength(1);
});

/**
 * The newest generation: v8, a new subscriber replayed one delivery per occurrence (behind
 * lean-histories-3); v7, resources that close an hour after their outcome (behind
 * lean-histories-2); v6 brought lean histories (issue 13, behind lean-histories). v5 was recorded once
 * both the case file (v4: activities write to it, no new patch) and the LOS notifications (v4n:
 * behind notify-los) were in. Every generation is kept, since journeys of each may still run.
 */
const CURRENT = 'v8';
const WITH_CASE_FILE = ['v4', 'v5', 'v6', 'v7', 'v8'];
const NOTIFYING = ['v4n', 'v5', 'v6', 'v7', 'v8'];
/** Generations whose journeys notify by a local activity first. */
const NOTIFYING_LOCALLY = ['v6', 'v7', 'v8'];

test('the current generation covers every workflow type, retried attempts, waivers and a native cancel', () => {
  const current = histories.filter((h) => generation(h) === CURRENT);
  expect(new Set(current.map(workflowType)).size).toBe(8);
  expect(current.some((h) => /\/banking\/2$/.test(h.workflowId))).toBe(true);
  expect(current.some((h) => /\/identity-verification\/[^/]+\/2$/.test(h.workflowId))).toBe(true);
  expect(current.some((h) => h.file.startsWith(`${CURRENT}-journey-waived__case_`))).toBe(true);
  expect(current.some((h) => h.history.events?.some((e) => e.workflowExecutionCanceledEventAttributes))).toBe(true);
});

test('since v4 (v4n aside) every provider read returned a case file reference and a summary, and journeys named documents by id', () => {
  const reads = [
    'readConnectedAccount',
    'getAffordabilityInsight',
    'getAffordabilityInsightTransactions',
    'getIncomeEmployerResult',
    'getIdentityVerificationResult',
    'requestCreditReport',
    'resolveCreditReportPicklist',
    'uploadDocument',
    'uploadDocumentAndSubscribe',
  ];
  const seen = new Set<string>();
  for (const h of histories.filter((x) => WITH_CASE_FILE.includes(generation(x)))) {
    const scheduled = new Map<string, string>();
    for (const event of h.history.events ?? []) {
      const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
      if (type) scheduled.set(String(event.eventId), type);
      const started = event.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
      if (started) expect(Buffer.from(started).toString('utf8')).not.toContain('content_base64');
      const completed = event.activityTaskCompletedEventAttributes;
      const name = completed && scheduled.get(String(completed.scheduledEventId));
      if (!name || !reads.includes(name)) continue;
      const result = JSON.parse(Buffer.from(completed.result!.payloads![0]!.data!).toString('utf8'));
      expect(result.case_file).toMatchObject({ attempt_id: h.workflowId, id: expect.any(String) });
      expect(JSON.stringify(result)).not.toMatch(/"transactions":\[|"checks":\[|"balances":\[|content_base64|extracted_data|credit_limit/);
      seen.add(name);
    }
  }
  expect([...seen].sort()).toEqual([...reads].sort());
});

test('journeys since v4n notify the LOS (notifyLos behind notify-los, a local activity since v6); older journeys never did', () => {
  const journeys = histories.filter((h) => workflowType(h) === 'onboardCase');
  const byActivity = (e: NonNullable<(typeof histories)[number]['history']['events']>[number]) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'notifyLos';
  const byLocalActivity = (e: NonNullable<(typeof histories)[number]['history']['events']>[number]) =>
    e.markerRecordedEventAttributes?.markerName === 'core_local_activity' && Buffer.from(e.markerRecordedEventAttributes.details?.data?.payloads?.[0]?.data ?? []).toString('utf8').includes('notifyLos');
  const notifies = (h: (typeof histories)[number]) => h.history.events?.some(NOTIFYING_LOCALLY.includes(generation(h)) ? byLocalActivity : byActivity) ?? false;
  const current = journeys.filter((h) => NOTIFYING.includes(generation(h)));
  expect(current.length).toBeGreaterThanOrEqual(4);
  for (const h of current) expect({ file: h.file, notifies: notifies(h) }).toEqual({ file: h.file, notifies: true });
  for (const h of journeys.filter((j) => !NOTIFYING.includes(generation(j)))) expect({ file: h.file, notifies: notifies(h) }).toEqual({ file: h.file, notifies: false });
});

test('a cosmetic update() in a step is harmless on current histories and caught on older ones', async () => {
  const cosmetic = await bundle('./altered/cosmeticReason');
  expect(idvStepHistories('v3').length).toBeGreaterThanOrEqual(3);
  expect((await replay(cosmetic, idvStepHistories('v3'))).filter((r) => r.error)).toEqual([]);
  // A journey's child signalled every update to its parent; a standalone step never signalled.
  const older = await replay(cosmetic, idvStepHistories('v2').filter((h) => h.workflowId.startsWith('case/')));
  expect(older.length).toBeGreaterThan(0);
  for (const r of older) expect(r.error).toBeInstanceOf(DeterminismViolationError);
}, 120_000);

test('every recorded history replays on the current workflow code', async () => {
  const results = await replay(testWorkflowBundle());
  expect(results.filter((r) => r.error).map((r) => `${r.file}: ${String(r.error)}`)).toEqual([]);
  expect(results).toHaveLength(histories.length);
  // Eight generations, some 340 histories: a minute or two of replay on a busy two-core machine.
}, 240_000);

test('a change of command order without patched() fails replay; the same change behind patched() passes', async () => {
  const [unpatched, patchedBundle] = await Promise.all([bundle('./altered/unpatched'), bundle('./altered/patched')]);
  const broken = await replay(unpatched, identityHistories);
  expect(broken.length).toBeGreaterThan(0);
  for (const r of broken) expect(r.error).toBeInstanceOf(DeterminismViolationError);
  expect((await replay(patchedBundle, identityHistories)).filter((r) => r.error)).toEqual([]);
}, 120_000);
