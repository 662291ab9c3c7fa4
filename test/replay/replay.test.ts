/**
 * Determinism (docs/versioning.md): every recorded history (test/replay/histories, from
 * `npm run record-histories -- 1.0`) replays on the current workflow code, and a change of
 * command order made without `patched()` is caught. One generation is kept: the baseline, recorded
 * under the name of the release it will become (`1.0`), which covers every workflow type and every
 * scenario in SCENARIOS, and holds no patch marker.
 * The recorded histories are json/plain (written before encryption); they replay through the
 * project's data converter, whose codec passes unencrypted payloads through.
 */
import { bundleWorkflowCode, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { z } from 'zod';
import { onboardCaseInputSchema } from '../../client/journeyInput';
import { caseIdSearchAttribute } from '../../client/searchAttributes';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { workflowBundleOptions } from '../../worker/workflowBundle';
import { readHistories, type RecordedHistory } from './historyFiles';

const histories = readHistories();
type Event = NonNullable<RecordedHistory['history']['events']>[number];
const workflowType = (h: RecordedHistory) =>
  h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
const events = (h: RecordedHistory): Event[] => h.history.events ?? [];
const journeys = histories.filter((h) => workflowType(h) === 'onboardCase');
const identityHistories = histories.filter((h) => h.scenario === 'idv-resubmission' && h.workflowId.startsWith('idv/'));
const payloadText = (data: Uint8Array | null | undefined) => Buffer.from(data ?? []).toString('utf8');
const ofScenario = (scenario: string) => histories.filter((h) => h.scenario === scenario);

/** The recorded generation: the baseline, named for the first release (docs/versioning.md). */
const GENERATION = '1.0';

/** Every scenario test/replay/recordHistories.ts records, each with every workflow it involved. */
const SCENARIOS = [
  // A standalone credit report whose picklist an Update resolves.
  'credit-picklist',
  // A standalone IDV: the provider asks for a resubmission, then approves.
  'idv-resubmission',
  // A journey cancelled natively (`handle.cancel()`) while its IDV waits.
  'journey-cancelled',
  // Every step, the applicant acting when asked.
  'journey-completed',
  // Operator actions that continue what the provider holds: a picklist retried (the report read
  // again, not bought), a waiting IDV retried (its request adopted), then a fresh one whose older
  // link the applicant completes; banking waived while affordability waits on it, then retried.
  'journey-continued',
  // No operator decision within the operator deadline: the journey closes needing attention.
  'journey-operator-deadline',
  // An expired IDV and a rejected bank connection, each retried by an operator, then completed.
  'journey-recovered',
  // A cancelled journey run again (`journey retry`): the completed credit report carried over.
  'journey-retried',
  // Two steps waived by an operator.
  'journey-waived',
  // The provider unavailable for a while: the step waits, told so, and goes on without an operator.
  'provider-outage',
  // A resource that ends soon after its outcome reached its subscriber.
  'resource-closed-after-outcome',
  // A late applicant: the resource polls with backoff, and the webhook cancels the poll.
  'resource-polled-with-backoff',
  // A subscriber that comes after both deliveries of an occurrence is replayed one of them.
  'resource-replayed-per-occurrence',
  // A lost webhook: the resource's poll finds the outcome on one of its retries.
  'resource-settled-by-poll',
  // Deliveries nobody subscribes to, through the bounded log of an unrouted resource.
  'unrouted',
];

const WORKFLOW_TYPES = [
  'affordabilityWorkflow',
  'bankingWorkflow',
  'creditReportWorkflow',
  'documentsWorkflow',
  'identityVerificationWorkflow',
  'incomeEmployerWorkflow',
  'onboardCase',
  'resourceWorkflow',
];

async function replay(workflowBundle: WorkflowBundleOption, subset = histories) {
  const results: { file: string; error?: unknown }[] = [];
  const files = new Map(subset.map((h) => [h.workflowId, h.file]));
  for await (const result of Worker.runReplayHistories(
    { workflowBundle, dataConverter: dataConverterFor(readPayloadKeys()) },
    subset,
  )) {
    results.push({ file: files.get(result.workflowId) ?? result.workflowId, error: result.error });
  }
  return results;
}

const bundle = (file: string) =>
  bundleWorkflowCode(workflowBundleOptions(require.resolve(file))).then(({ code }) => ({
    code,
  }));

test('one generation, the baseline: every scenario and every workflow type', () => {
  expect([...new Set(histories.map((h) => h.generation))]).toEqual([GENERATION]);
  expect([...new Set(histories.map((h) => h.scenario))].sort()).toEqual([...SCENARIOS].sort());
  expect([...new Set(histories.map(workflowType))].sort()).toEqual([...WORKFLOW_TYPES].sort());
});

test('the baseline covers retried attempts, waivers, a native cancel, an operator deadline run out and a carried-over step', () => {
  expect(histories.some((h) => /\/banking\/2$/.test(h.workflowId))).toBe(true);
  expect(histories.some((h) => /\/identity-verification\/[^/]+\/2$/.test(h.workflowId))).toBe(true);
  expect(journeys.some((h) => h.scenario === 'journey-waived')).toBe(true);
  expect(histories.some((h) => events(h).some((e) => e.workflowExecutionCanceledEventAttributes))).toBe(true);
  const closedForAnOperator = journeys.find((h) => h.scenario === 'journey-operator-deadline')!;
  expect(
    payloadText(
      events(closedForAnOperator).at(-1)?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0]?.data,
    ),
  ).toContain('"state":"needs_attention"');
  const retried = journeys.find((h) => h.scenario === 'journey-retried')!;
  expect(
    payloadText(events(retried)[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data),
  ).toContain('"carryOver"');
});

test('no history holds a patch marker: nothing is released, so no workflow code is patched', () => {
  const patchMarkers = histories.flatMap((h) =>
    events(h)
      .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
      .map(() => h.file),
  );
  expect(patchMarkers).toEqual([]);
});

/** The activity types a history schedules, and those its local activities ran (from their markers). */
const activityTypes = (h: RecordedHistory) =>
  events(h)
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
    .filter((name): name is string => Boolean(name));
const localActivityMarkers = (h: RecordedHistory) =>
  events(h)
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => payloadText(e.markerRecordedEventAttributes!.details?.data?.payloads?.[0]?.data));

test('every journey writes its state to the read model', () => {
  const writes = (h: RecordedHistory) =>
    localActivityMarkers(h).some((m) => m.includes('writeCaseState')) || activityTypes(h).includes('writeCaseState');
  for (const h of journeys) expect({ file: h.file, writes: writes(h) }).toEqual({ file: h.file, writes: true });
});

test("a resource polls by one activity's retries: a late applicant's webhook cancels the poll, a lost one is found by a retry", () => {
  const resources = histories.filter((h) => workflowType(h) === 'resourceWorkflow');
  // No poll of its own: neither an activity nor a local activity per poll.
  expect(
    resources
      .filter(
        (h) =>
          activityTypes(h).includes('pollResource') || localActivityMarkers(h).some((m) => m.includes('pollResource')),
      )
      .map((h) => h.file),
  ).toEqual([]);
  const ofResources = (scenario: string) => resources.filter((h) => h.scenario === scenario).flatMap((h) => events(h));
  const pollsOf = (scenario: string) =>
    ofResources(scenario).filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'pollUntilSettled',
    );
  const outcomeOf = (scenario: string) => ({
    cancelled: ofResources(scenario).filter((e) => e.activityTaskCanceledEventAttributes).length,
    completedOnAttempt: ofResources(scenario)
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1),
  });
  // The first poll waits for a timer; the polls after it are the activity's attempts, no event each.
  expect(ofResources('resource-polled-with-backoff').some((e) => e.timerStartedEventAttributes)).toBe(true);
  expect(pollsOf('resource-polled-with-backoff')).toHaveLength(1);
  expect(outcomeOf('resource-polled-with-backoff')).toEqual({ cancelled: 1, completedOnAttempt: [] });
  expect(pollsOf('resource-settled-by-poll')).toHaveLength(1);
  expect(outcomeOf('resource-settled-by-poll').cancelled).toBe(0);
  expect(outcomeOf('resource-settled-by-poll').completedOnAttempt).toEqual([expect.any(Number)]);
  expect(outcomeOf('resource-settled-by-poll').completedOnAttempt[0]).toBeGreaterThan(1);
});

test('operator actions continue what the provider holds: a picklist retried reads the report again, a waiting IDV retried adopts its request', () => {
  const continued = ofScenario('journey-continued');
  const credit = continued.filter((h) => workflowType(h) === 'creditReportWorkflow').map(activityTypes);
  expect(credit).toEqual(
    expect.arrayContaining([
      expect.arrayContaining(['requestCreditReport']),
      expect.arrayContaining(['readCreditReport', 'resolveCreditReportPicklist']),
    ]),
  );
  expect(credit.flat().filter((a) => a === 'requestCreditReport')).toHaveLength(1);
});

test('a case carries its CaseId from the start on the journey and every step attempt, and on every resource it subscribed to', () => {
  const startedWith = (h: RecordedHistory) =>
    payloadText(
      events(h)[0]?.workflowExecutionStartedEventAttributes?.searchAttributes?.indexedFields?.[
        caseIdSearchAttribute.name
      ]?.data,
    );
  const upserted = (h: RecordedHistory) =>
    events(h).some(
      (e) =>
        e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.[caseIdSearchAttribute.name],
    );
  const ofJourneys = histories.filter((h) => h.scenario.startsWith('journey-'));
  expect(ofJourneys.length).toBeGreaterThan(40);
  for (const h of ofJourneys) {
    const caseOf = /^case\/([^/]+)/.exec(h.workflowId)?.[1];
    if (caseOf)
      expect({ file: h.file, caseId: startedWith(h) }).toEqual({ file: h.file, caseId: JSON.stringify(caseOf) });
    // A resource the bridge started (a delivery first) learns its case from its first subscriber.
    else
      expect({ file: h.file, carried: startedWith(h) !== '' || upserted(h) }).toEqual({ file: h.file, carried: true });
  }
});

test('a resource whose outcome reached its subscriber ends after its quiet time', () => {
  const closed = ofScenario('resource-closed-after-outcome');
  expect(closed).toHaveLength(1);
  for (const h of closed) {
    expect(events(h).some((e) => e.externalWorkflowExecutionSignaledEventAttributes)).toBe(true);
    expect(events(h).at(-1)?.workflowExecutionCompletedEventAttributes).toBeTruthy();
  }
});

test('a subscriber that comes after both deliveries of an occurrence is replayed one of them', () => {
  const replayed = ofScenario('resource-replayed-per-occurrence');
  expect(replayed).toHaveLength(1);
  for (const h of replayed) {
    expect(events(h).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'deliver')).toHaveLength(
      2,
    );
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
      expect(JSON.stringify(result)).not.toMatch(
        /"transactions":\[|"checks":\[|"balances":\[|content_base64|extracted_data|credit_limit/,
      );
      seen.add(name);
    }
  }
  expect([...seen].sort()).toEqual([...reads].sort());
});

test('every journey notifies the LOS and writes its read model by activities, and runs no local activity', () => {
  // A local activity that outlives its workflow task is recorded in a later task, after that
  // task's commands, and such a history did not replay: the journey runs none.
  const scheduled = (e: Event) => e.activityTaskScheduledEventAttributes?.activityType?.name;
  const localActivity = (e: Event) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity';
  // One journey history for each journey scenario (a retried journey's latest run) and each late-applicant one.
  expect(journeys.length).toBe(
    SCENARIOS.filter(
      (s) =>
        s.startsWith('journey-') ||
        s === 'provider-outage' ||
        s === 'resource-polled-with-backoff' ||
        s === 'resource-settled-by-poll',
    ).length,
  );
  for (const h of journeys)
    expect({
      file: h.file,
      notifies: events(h).some((e) => scheduled(e) === 'notifyLos'),
      writes: events(h).some((e) => scheduled(e) === 'writeCaseState'),
      localActivities: events(h).filter(localActivity).length,
    }).toEqual({ file: h.file, notifies: true, writes: true, localActivities: 0 });
});

test('every recorded history replays on the current workflow code', async () => {
  const results = await replay(testWorkflowBundle());
  expect(results.filter((r) => r.error).map((r) => `${r.file}: ${String(r.error)}`)).toEqual([]);
  expect(results).toHaveLength(histories.length);
}, 120_000);

test('a journey input rule tightened after journeys started does not touch their replay: the workflow only reads its input', async () => {
  // Tomorrow's rule, say: at most one resubmission, and deadlines named explicitly.
  const tightened = onboardCaseInputSchema.safeExtend({
    maxResubmissions: z.number().int().max(1),
    deadlines: z.record(z.string(), z.unknown()).refine((d) => 'operatorDecision' in d, 'operatorDecision is required'),
  });
  const inputOf = (h: RecordedHistory) =>
    JSON.parse(
      payloadText(events(h)[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data),
    ) as unknown;
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

test('a change of command order without patched() fails replay; the same change behind patched(), as after a release, passes', async () => {
  const [unpatched, patchedBundle] = await Promise.all([bundle('./altered/unpatched'), bundle('./altered/patched')]);
  const broken = await replay(unpatched, identityHistories);
  expect(broken.length).toBeGreaterThan(0);
  for (const r of broken) expect(r.error).toBeInstanceOf(DeterminismViolationError);
  expect((await replay(patchedBundle, identityHistories)).filter((r) => r.error)).toEqual([]);
}, 120_000);
