/**
 * Determinism (docs/versioning.md): every recorded history (test/replay/histories, from
 * `npm run record-histories -- <generation>`) replays on the current workflow code, and a change of
 * command order without `patched()` is caught. Two generations are kept: the 1.0 baseline, which
 * covers every workflow type and every scenario the ten pre-1.0 generations covered, and 1.1
 * (operator actions that never re-buy, issue 20), which records them again with its new paths and
 * the three patches that keep 1.0 executions replaying.
 * The recorded histories are json/plain (written before encryption); they replay through the
 * project's data converter, whose codec passes unencrypted payloads through.
 */
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { z } from 'zod';
import { onboardCaseInputSchema } from '../../client/journeyInput';
import { caseIdSearchAttribute } from '../../client/searchAttributes';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { readHistories, type RecordedHistory } from './historyFiles';

const histories = readHistories();
type Event = NonNullable<RecordedHistory['history']['events']>[number];
const workflowType = (h: RecordedHistory) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
const events = (h: RecordedHistory): Event[] => h.history.events ?? [];
const journeys = histories.filter((h) => workflowType(h) === 'onboardCase');
const identityHistories = histories.filter((h) => h.scenario === 'idv-resubmission' && h.workflowId.startsWith('idv/'));
const payloadText = (data: Uint8Array | null | undefined) => Buffer.from(data ?? []).toString('utf8');

/** The generations whose journeys may still run (docs/versioning.md: one is retired when its last journey closed). */
const GENERATIONS = ['1.0', '1.1', '1.2', '1.3'];

/**
 * The patch ids in use (`grep -rn "patched(" workflows/`): 1.1's operator actions that never re-buy
 * (issue 20), 1.2's read model (issue 22) and polling that backs off (issue 24), 1.3's polls as an
 * activity's retries (issue 24). A history records the markers of the paths it took; a 1.0 history
 * has none, and replays the old path of each.
 */
const PATCHES_1_2 = ['attempt-restarts-after-a-reset', 'cancelled-attempt-answers-its-ids', 'journey-waits-for-stopped-attempts', 'journey-writes-its-read-model', 'resource-polling-backs-off', 'steps-leave-their-resources'];
const PATCHES = [...PATCHES_1_2, 'resource-polls-by-retry'].sort();

/**
 * The patches each generation's histories hold. 1.2's journeys decide `attempt-restarts-after-a-reset`
 * and `journey-writes-its-read-model` at their first task, its resources `resource-polling-backs-off`,
 * so every 1.2 history of that type holds them. `creating-call-recovers-its-answer` is in use but in
 * no recorded path (docs/versioning.md says which tests drive it).
 */
const PATCHES_OF = { '1.1': ['cancelled-attempt-answers-its-ids', 'journey-waits-for-stopped-attempts', 'steps-leave-their-resources'], '1.2': PATCHES_1_2, '1.3': PATCHES } as const;

/**
 * Every scenario the pre-1.0 generations (v1 … v8) covered, under the names the baseline uses:
 * `journey-operator-deadline` is v1–v2's `journey-needs-attention` (a journey closed for want of an
 * operator); `journey-retried` is new (`journey retry` of a closed journey, a step carried over).
 */
const SCENARIOS_1_0 = [
  'credit-picklist',
  'idv-resubmission',
  'journey-cancelled',
  'journey-completed',
  'journey-operator-deadline',
  'journey-recovered',
  'journey-retried',
  'journey-waived',
  'resource-closed-after-outcome',
  'resource-replayed-per-occurrence',
  'unrouted',
];

/**
 * 1.1 records every scenario again, and the new paths: continued purchases, a fresh one, a re-opened
 * waiver, an outage ridden out. 1.2 adds a late applicant whose resource polls with backoff; 1.3 a
 * lost webhook whose outcome a poll's retry finds.
 */
const SCENARIOS_1_1 = [...SCENARIOS_1_0, 'journey-continued', 'provider-outage'].sort();
const SCENARIOS_1_2 = [...SCENARIOS_1_1, 'resource-polled-with-backoff'].sort();
const SCENARIOS = { '1.0': SCENARIOS_1_0, '1.1': SCENARIOS_1_1, '1.2': SCENARIOS_1_2, '1.3': [...SCENARIOS_1_2, 'resource-settled-by-poll'].sort() } as const;
const ofGeneration = (generation: string) => histories.filter((h) => h.generation === generation);

async function replay(workflowBundle: WorkflowBundleOption, subset = histories) {
  const results: { file: string; error?: unknown }[] = [];
  const files = new Map(subset.map((h) => [h.workflowId, h.file]));
  for await (const result of Worker.runReplayHistories({ workflowBundle, dataConverter: dataConverterFor(readPayloadKeys()) }, subset)) {
    results.push({ file: files.get(result.workflowId) ?? result.workflowId, error: result.error });
  }
  return results;
}

const bundle = (file: string) => bundleWorkflowCode({ workflowsPath: require.resolve(file), logger: new DefaultLogger('WARN') }).then(({ code }) => ({ code }));

test('the kept generations, each with every scenario and every workflow type', () => {
  expect([...new Set(histories.map((h) => h.generation))].sort()).toEqual(GENERATIONS);
  for (const generation of GENERATIONS) {
    const kept = ofGeneration(generation);
    expect({ generation, scenarios: [...new Set(kept.map((h) => h.scenario))].sort() }).toEqual({ generation, scenarios: SCENARIOS[generation as keyof typeof SCENARIOS] });
    expect({ generation, types: [...new Set(kept.map(workflowType))].sort() }).toEqual({
      generation,
      types: ['affordabilityWorkflow', 'bankingWorkflow', 'creditReportWorkflow', 'documentsWorkflow', 'identityVerificationWorkflow', 'incomeEmployerWorkflow', 'onboardCase', 'resourceWorkflow'].sort(),
    });
  }
});

test('the baseline covers retried attempts, waivers, a native cancel, an operator deadline run out and a carried-over step', () => {
  expect(histories.some((h) => /\/banking\/2$/.test(h.workflowId))).toBe(true);
  expect(histories.some((h) => /\/identity-verification\/[^/]+\/2$/.test(h.workflowId))).toBe(true);
  expect(journeys.some((h) => h.scenario === 'journey-waived')).toBe(true);
  expect(histories.some((h) => events(h).some((e) => e.workflowExecutionCanceledEventAttributes))).toBe(true);
  const closedForAnOperator = journeys.find((h) => h.scenario === 'journey-operator-deadline')!;
  expect(payloadText(events(closedForAnOperator).at(-1)?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0]?.data)).toContain('"state":"needs_attention"');
  const retried = journeys.find((h) => h.scenario === 'journey-retried')!;
  expect(payloadText(events(retried)[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data)).toContain('"carryOver"');
});

const patchIds = (h: RecordedHistory) =>
  events(h)
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .map((e) => (JSON.parse(payloadText(e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data)) as { id: string }).id);

test('1.0 histories hold no patch marker; 1.1, 1.2 and 1.3 histories hold their patches and no other; 1.3 holds every patch in use', () => {
  expect(ofGeneration('1.0').flatMap(patchIds)).toEqual([]);
  for (const generation of ['1.1', '1.2', '1.3'] as const) {
    const used = [...new Set(ofGeneration(generation).flatMap(patchIds))].sort();
    expect({ generation, used }).toEqual({ generation, used: [...PATCHES_OF[generation]] });
  }
});

test('1.2: every journey writes its read model and every resource that waited backs off', () => {
  const holds = (type: string, patch: string) => ofGeneration('1.2').filter((h) => workflowType(h) === type).every((h) => patchIds(h).includes(patch));
  expect(holds('onboardCase', 'journey-writes-its-read-model')).toBe(true);
  const polled = ofGeneration('1.2').filter((h) => h.scenario === 'resource-polled-with-backoff' && workflowType(h) === 'resourceWorkflow');
  expect(polled.length).toBeGreaterThan(0);
  expect(polled.every((h) => patchIds(h).includes('resource-polling-backs-off'))).toBe(true);
});

test('1.3: every resource polls by retries; a late applicant\'s webhook cancels the poll, a lost one is found by a retry', () => {
  const resources = ofGeneration('1.3').filter((h) => workflowType(h) === 'resourceWorkflow');
  expect(resources.every((h) => patchIds(h).includes('resource-polls-by-retry'))).toBe(true);
  const pollsOf = (scenario: string) =>
    resources.filter((h) => h.scenario === scenario).flatMap((h) => events(h)).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'pollUntilSettled');
  const outcomeOf = (scenario: string) => {
    const all = resources.filter((h) => h.scenario === scenario).flatMap((h) => events(h));
    return {
      cancelled: all.filter((e) => e.activityTaskCanceledEventAttributes).length,
      completedOnAttempt: all.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1),
    };
  };
  expect(pollsOf('resource-polled-with-backoff')).toHaveLength(1);
  expect(outcomeOf('resource-polled-with-backoff')).toEqual({ cancelled: 1, completedOnAttempt: [] });
  expect(pollsOf('resource-settled-by-poll')).toHaveLength(1);
  expect(outcomeOf('resource-settled-by-poll').cancelled).toBe(0);
  expect(outcomeOf('resource-settled-by-poll').completedOnAttempt).toEqual([expect.any(Number)]);
  expect(outcomeOf('resource-settled-by-poll').completedOnAttempt[0]).toBeGreaterThan(1);
});

test('1.1 continues what the provider holds: a picklist retried reads the report again, a waiting IDV retried adopts its request', () => {
  const continued = ofGeneration('1.1').filter((h) => h.scenario === 'journey-continued');
  const activities = (h: RecordedHistory) => events(h).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  const credit = continued.filter((h) => workflowType(h) === 'creditReportWorkflow').map(activities);
  expect(credit).toEqual(expect.arrayContaining([expect.arrayContaining(['requestCreditReport']), expect.arrayContaining(['readCreditReport', 'resolveCreditReportPicklist'])]));
  expect(credit.flat().filter((a) => a === 'requestCreditReport')).toHaveLength(1);
});

test('a case carries its CaseId from the start on the journey and every step attempt, and on every resource it subscribed to', () => {
  const startedWith = (h: RecordedHistory) => payloadText(events(h)[0]?.workflowExecutionStartedEventAttributes?.searchAttributes?.indexedFields?.[caseIdSearchAttribute.name]?.data);
  const upserted = (h: RecordedHistory) => events(h).some((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.[caseIdSearchAttribute.name]);
  const ofJourneys = histories.filter((h) => h.scenario.startsWith('journey-'));
  expect(ofJourneys.length).toBeGreaterThan(30);
  for (const h of ofJourneys) {
    const caseOf = /^case\/([^/]+)/.exec(h.workflowId)?.[1];
    if (caseOf) expect({ file: h.file, caseId: startedWith(h) }).toEqual({ file: h.file, caseId: JSON.stringify(caseOf) });
    // A resource the bridge started (a delivery first) learns its case from its first subscriber.
    else expect({ file: h.file, carried: startedWith(h) !== '' || upserted(h) }).toEqual({ file: h.file, carried: true });
  }
});

test('a resource whose outcome reached its subscriber ends after its quiet time', () => {
  const closed = histories.filter((h) => h.scenario === 'resource-closed-after-outcome');
  expect(closed).toHaveLength(GENERATIONS.length);
  for (const h of closed) {
    expect(events(h).some((e) => e.externalWorkflowExecutionSignaledEventAttributes)).toBe(true);
    expect(events(h).at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
  }
});

test('a subscriber that comes after both deliveries of an occurrence is replayed one of them', () => {
  const replayed = histories.filter((h) => h.scenario === 'resource-replayed-per-occurrence');
  expect(replayed).toHaveLength(GENERATIONS.length);
  for (const h of replayed) {
    expect(events(h).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'deliver')).toHaveLength(2);
    expect(events(h).filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes)).toHaveLength(1);
  }
});

test('every provider read returned a case file reference and a summary, and journeys named documents by id', () => {
  const reads = [
    'readConnectedAccount',
    'getAffordabilityInsight',
    'getAffordabilityInsightTransactions',
    'getIncomeEmployerResult',
    'getIdentityVerificationResult',
    'requestCreditReport',
    'resolveCreditReportPicklist',
    'uploadDocumentAndSubscribe',
  ];
  const seen = new Set<string>();
  for (const h of histories) {
    const scheduled = new Map<string, string>();
    for (const event of events(h)) {
      const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
      if (type) scheduled.set(String(event.eventId), type);
      const started = event.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
      if (started) expect(payloadText(started)).not.toContain('content_base64');
      const completed = event.activityTaskCompletedEventAttributes;
      const name = completed && scheduled.get(String(completed.scheduledEventId));
      if (!name || !reads.includes(name)) continue;
      const result = JSON.parse(payloadText(completed.result!.payloads![0]!.data));
      expect(result.case_file).toMatchObject({ attempt_id: h.workflowId, id: expect.any(String) });
      expect(JSON.stringify(result)).not.toMatch(/"transactions":\[|"checks":\[|"balances":\[|content_base64|extracted_data|credit_limit/);
      seen.add(name);
    }
  }
  expect([...seen].sort()).toEqual([...reads].sort());
});

test('every journey notifies the LOS, by a local activity first', () => {
  const byLocalActivity = (e: Event) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity' && payloadText(e.markerRecordedEventAttributes.details?.data?.payloads?.[0]?.data).includes('notifyLos');
  expect(journeys.length).toBe(6 + 8 + 9 + 10);
  for (const h of journeys) expect({ file: h.file, notifies: events(h).some(byLocalActivity) }).toEqual({ file: h.file, notifies: true });
});

test('every recorded history replays on the current workflow code', async () => {
  const results = await replay(testWorkflowBundle());
  expect(results.filter((r) => r.error).map((r) => `${r.file}: ${String(r.error)}`)).toEqual([]);
  expect(results).toHaveLength(histories.length);
}, 120_000);

test('a journey input rule tightened after journeys started does not touch their replay: the workflow only reads its input', async () => {
  // Tomorrow's rule, say: at most one resubmission, and deadlines named explicitly.
  const tightened = onboardCaseInputSchema.safeExtend({ maxResubmissions: z.number().int().max(1), deadlines: z.record(z.string(), z.unknown()).refine((d) => 'operatorDecision' in d, 'operatorDecision is required') });
  const inputOf = (h: RecordedHistory) => JSON.parse(payloadText(events(h)[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data)) as unknown;
  const refused = journeys.filter((h) => !tightened.safeParse(inputOf(h)).success);
  expect(refused.length).toBeGreaterThanOrEqual(5);
  for (const h of refused) expect(onboardCaseInputSchema.safeParse(inputOf(h)).success).toBe(true);
  expect((await replay(testWorkflowBundle(), refused)).filter((r) => r.error)).toEqual([]);
}, 120_000);

test('a cosmetic update() in a step adds no command: it replays', async () => {
  const cosmetic = await bundle('./altered/cosmeticReason');
  const idvSteps = histories.filter((h) => workflowType(h) === 'identityVerificationWorkflow');
  expect(idvSteps.length).toBeGreaterThanOrEqual(5);
  expect((await replay(cosmetic, idvSteps)).filter((r) => r.error)).toEqual([]);
}, 120_000);

test('a change of command order without patched() fails replay; the same change behind patched() passes', async () => {
  const [unpatched, patchedBundle] = await Promise.all([bundle('./altered/unpatched'), bundle('./altered/patched')]);
  const broken = await replay(unpatched, identityHistories);
  expect(broken.length).toBeGreaterThan(0);
  for (const r of broken) expect(r.error).toBeInstanceOf(DeterminismViolationError);
  expect((await replay(patchedBundle, identityHistories)).filter((r) => r.error)).toEqual([]);
}, 120_000);
