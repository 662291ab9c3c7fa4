/**
 * Fault suite: the webhook secret rotated at the provider while deliveries signed with the
 * old one are still in flight. The bridge (a process of its own, reading its secret from the
 * provider) meets a delivery signed with the new secret first, reads the provider again, and keeps
 * the old secret as the previous one: the late old-signed deliveries are accepted, nothing is
 * refused, and every journey completes on its webhooks (reconciliation is set too late to help).
 */
import { webhookManagement } from '../../activities/webhookManagement';
import { freePort } from '../../cli/freePort';
import { registerWebhook, startStack, type Stack } from '../../cli/stack';
import { providerEnvOf } from '../../cli/stackProcessEnv';
import type { DeliveryLogEntry } from '../../simulator/store';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { killChildren, startChild } from '../support/faultHarness/childProcess';
import { settledLedger } from '../support/faultHarness/deliveryLedger';
import { askedOf, newApplicant, startJourney } from '../support/faultHarness/faultJourneys';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

const JOURNEYS = 6;
const DELAY_MS = 4_000;
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    caseFile: testCaseFileOption(),
    temporal: testTemporalConfig(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 4444,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  killChildren();
  await stack?.stop();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);
const deliveries = async () => (await control('/deliveries')) as DeliveryLogEntry[];

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('a secret rotation with old-signed deliveries in flight: nothing refused, every journey completes on its webhooks, every 2xx applied once', async () => {
  const port = await freePort();
  const bridge = await startChild(
    'webhook-bridge/main.ts',
    {
      TEMPORAL_ADDRESS: stack.temporal.address,
      TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
      BRIDGE_PORT: String(port),
      BRIDGE_SPOOL_DIR: testDirectory('rotation-spool'),
      WEBHOOK_SECRET_SOURCE: 'provider',
      ...providerEnvOf(stack),
    },
    'bridge listening',
  );
  try {
    await registerWebhook(stack.provider, stack.simulator, `http://127.0.0.1:${port}/webhooks`);
    // Reconciliation too late to make up for a refused delivery: the webhooks must do it all.
    const plan = { banking: true, reconcileAfter: '10 minutes' };
    const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
    const handles = await Promise.all(
      applicants.map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, plan)),
    );
    const asked = await Promise.all(applicants.map((a) => askedOf(stack.caseFile, a, plan)));
    const before = (await deliveries()).length;

    // The IDV outcomes are signed with the old secret now and arrive DELAY_MS later.
    await control('/fault-rates', { delivery_delay_rate: 1, delivery_delay_ms: DELAY_MS }, 'PUT');
    const idvSent = Promise.all(
      asked.map((ids) =>
        control(`/identity-verifications/${ids.requestId}/complete`, { verification_status: 'Approved' }),
      ),
    );
    const signedOld = () =>
      stack.simulator.store.deliveries.slice(before).filter((d) => d.event_type === 'IdentityVerification.Completed')
        .length;
    await until(() => signedOld() >= JOURNEYS, 30_000, 'the IDV deliveries to be signed');
    await control('/fault-rates', {}, 'PUT');
    const oldSecret = stack.simulator.store.webhookSecret?.secret;
    await webhookManagement(stack.provider, { localDevelopment: true }).rotateSecret();
    expect(stack.simulator.store.webhookSecret?.secret).not.toBe(oldSecret);
    const rotatedAt = new Date().toISOString();
    // The banking outcomes go out at once, signed with the new secret, ahead of the old-signed ones.
    await Promise.all(
      asked.map((ids) =>
        control(`/open-banking-connections/${ids.connectionId}/complete`, { status: 'Connected', accounts: 1 }),
      ),
    );
    await idvSent;

    const outcomes = await Promise.all(handles.map((h) => h.result()));
    expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
    const log = (await deliveries()).slice(before);
    // Signed before the rotation, still in flight after it (held DELAY_MS); banking's signed after.
    const idv = log.filter((d) => d.event_type === 'IdentityVerification.Completed');
    expect(idv.length).toBeGreaterThanOrEqual(JOURNEYS);
    expect(idv.every((d) => d.faults.includes('delayed') && d.sent_at < rotatedAt)).toBe(true);
    expect(log.filter((d) => d.event_type.startsWith('OpenBanking')).every((d) => d.sent_at > rotatedAt)).toBe(true);
    expect(log.filter((d) => d.status !== 202).map((d) => `${d.event_type}: ${d.status}`)).toEqual([]);
    const ledger = await settledLedger(stack.client, stack.temporal.taskQueue, async () =>
      (await deliveries()).slice(before),
    );
    expect({ notApplied: ledger.notApplied, appliedTwice: ledger.appliedTwice, polled: ledger.polled }).toEqual({
      notApplied: [],
      appliedTwice: [],
      polled: 0,
    });
  } finally {
    await bridge.stop();
  }
}, 300_000);
