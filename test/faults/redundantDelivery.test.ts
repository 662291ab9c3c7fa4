/**
 * Redundant delivery (docs/deployment.md): two webhooks with the same event types, each to its own
 * bridge. Every event reaches both and is applied once; when one bridge goes away mid-run, the
 * other still receives everything, and no step has to wait for reconciliation polling (case
 * banking cannot be polled at all).
 */
import pino from 'pino';
import { webhookManagement } from '../../activities/webhookManagement';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { knownEventTypes, resourceWorkflowId } from '../../provider';
import { readBridgeConfig } from '../../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../../webhook-bridge/startBridge';
import { resourceStateQuery } from '../../client/resourceMessages';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { deliverSignals } from '../support/signalsReceived';
import { startOnboardCase } from '../support/startOnboardCase';

const JOURNEYS = 6;
let stack: Stack;
let second: RunningBridge;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 515,
    spoolDir: testDirectory('spool-a'),
    processingDelayMs: 20,
  });
  const config = {
    ...readBridgeConfig({ WEBHOOK_SECRET: stack.webhookSecret }),
    port: 0,
    spoolDir: testDirectory('spool-b'),
  };
  second = await startBridge(config, stack.temporal, {
    logger: pino({ level: 'silent' }),
    payloadKeys: stack.payloadKeys,
  });
  await webhookManagement(stack.provider, { localDevelopment: true }).createWebhook({
    webhook_name: 'second bridge',
    webhook_callback_url: second.url,
    event_types: [...knownEventTypes],
  });
});

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

async function journey(): Promise<{
  handle: ReturnType<Stack['client']['workflow']['getHandle']>;
  personId: string;
  waiting: JourneyStatus;
}> {
  const caseId = (await control('/cases', {})).case_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    // No polling within the test: every event must come by webhook.
    args: [
      {
        caseId,
        people: [{ personId }],
        steps: { identityVerification: true, banking: 'open_banking' },
        deadlines: { reconcileAfter: '1 hour', identityVerification: '2 minutes', banking: '2 minutes' },
      },
    ],
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps[`identity-verification/${personId}`]?.state === 'waiting' && s.steps.banking?.state === 'waiting',
  );
  return { handle, personId, waiting };
}

async function applicantActs({ personId, waiting }: { personId: string; waiting: JourneyStatus }): Promise<void> {
  await control(
    `/identity-verifications/${waiting.steps[`identity-verification/${personId}`]!.providerIds.request_id}/complete`,
    { verification_status: 'Approved' },
  );
  await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
    status: 'Connected',
    accounts: 1,
  });
}

test('with two bridges, one going away mid-run, every event arrives and is applied once', async () => {
  const journeys = await Promise.all(Array.from({ length: JOURNEYS }, () => journey()));
  const [before, after] = [journeys.slice(0, JOURNEYS / 2), journeys.slice(JOURNEYS / 2)];
  for (const j of before) await applicantActs(j);
  await Promise.all(before.map((j) => j.handle.result()));

  const firstBridge = stack.bridge.url;
  await stack.bridge.stop();
  for (const j of after) await applicantActs(j);
  const outcomes = await Promise.all(journeys.map((j) => j.handle.result()));
  expect(outcomes.map((o) => o.state)).toEqual(journeys.map(() => 'completed'));

  // The deliveries to the bridge that went away failed (the provider never retries them) ...
  await control('/settle', {});
  const deliveries = (await control('/deliveries')) as {
    callback_url: string;
    outcome: string;
    batch_id: string;
    event_type: string;
  }[];
  expect(deliveries.filter((d) => d.callback_url === firstBridge && d.outcome === 'failed').length).toBeGreaterThan(0);
  // ... and every occurrence the first bridge took before it went away, the second took too ...
  const takenBy = (url: string) =>
    new Set(
      deliveries
        .filter((d) => d.callback_url === url && d.outcome === 'delivered')
        .map((d) => `${d.batch_id} ${d.event_type}`),
    );
  const takenByFirst = takenBy(firstBridge);
  const takenBySecond = takenBy(second.url);
  expect(takenByFirst.size).toBeGreaterThanOrEqual(before.length);
  expect([...takenByFirst].filter((occurrence) => !takenBySecond.has(occurrence))).toEqual([]);
  // ... and each occurrence was applied exactly once, from a webhook, never from polling. The
  // second bridge's copy went with the same request id as the first's, so Temporal dropped it.
  for (const j of journeys) {
    const requestId = j.waiting.steps[`identity-verification/${j.personId}`]!.providerIds.request_id!;
    const handle = stack.client.workflow.getHandle(resourceWorkflowId({ kind: 'idv', id: requestId }));
    const state = await handle.query(resourceStateQuery);
    expect(state.occurrences).toBe(1);
    expect(state.events.map((e) => e.parse)).toEqual(['known']);
    expect(await deliverSignals(stack.client, handle.workflowId)).toBe(1);
  }
}, 240_000);
