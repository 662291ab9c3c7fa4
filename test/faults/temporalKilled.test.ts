/**
 * Fault suite: the Temporal server SIGKILLed mid-journey, the applicants acting while it is
 * down (their webhooks reach the bridge, which answers 2xx from its spool), then the server restarted
 * on the same SQLite file. Every journey completes, and every delivery answered 2xx, spooled ones
 * included, is in its resource workflow's log exactly once.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevServer, type DevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import { startStack, type Stack } from '../../cli/stack';
import { resolveTemporalCli } from '../../cli/temporalCli';
import type { DeliveryLogEntry } from '../../simulator/store';
import { testCaseFileOption, testWorkflowBundle } from '../setup/testEnvironment';
import { settledLedger } from '../support/faultHarness/deliveryLedger';
import { act, askedOf, newApplicant, startJourney } from '../support/faultHarness/faultJourneys';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

const JOURNEYS = 6;
const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-killed-'));
const dbFile = path.join(dir, 'temporal.db');
const logFile = path.join(dir, 'temporal.log');
let stack: Stack;
let restarted: DevServer | undefined;

afterAll(async () => {
  await stack?.stop();
  await restarted?.stop();
});

const control = (p: string, body?: unknown, method?: string) => simulatorControl(stack.simulator)(p, body, method);
const deliveries = async () => (await control('/deliveries')) as DeliveryLogEntry[];

/** Resolves once the process is gone (signal 0 probes without signalling). */
async function gone(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('Temporal SIGKILLed and restarted mid-journey, deliveries arriving while it is down: every journey completes, every 2xx applied once', async () => {
  const port = await freePort();
  stack = await startStack({
    caseFile: testCaseFileOption(),
    embedded: { port, dbFile, logFile },
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3333,
    spoolDir: path.join(dir, 'spool'),
    processingDelayMs: 50,
  });
  const plan = { banking: true };
  const applicants = await Promise.all(Array.from({ length: JOURNEYS }, () => newApplicant(control)));
  const handles = await Promise.all(
    applicants.map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, plan)),
  );
  const asked = await Promise.all(applicants.map((a) => askedOf(stack.caseFile, a, plan)));

  const pid = stack.devServer!.pid;
  process.kill(pid, 'SIGKILL');
  await gone(pid);
  const before = (await deliveries()).length;
  for (const ids of asked) await act(control, ids);
  await control('/settle', {}, 'POST');
  const whileDown = (await deliveries()).slice(before);
  // The applicants' webhooks arrived while Temporal was down, and the bridge took each (spooled).
  expect(whileDown.length).toBeGreaterThanOrEqual(2 * JOURNEYS);
  expect(whileDown.filter((d) => d.status !== 202)).toEqual([]);

  restarted = await startDevServer({ cliPath: await resolveTemporalCli({ log: () => {} }), port, dbFile, logFile });
  const outcomes = await Promise.all(handles.map((h) => h.result()));
  expect(outcomes.map((o) => o.state)).toEqual(outcomes.map(() => 'completed'));
  const ledger = await settledLedger(stack.client, stack.temporal.taskQueue, deliveries);
  expect({ notApplied: ledger.notApplied, appliedTwice: ledger.appliedTwice }).toEqual({
    notApplied: [],
    appliedTwice: [],
  });
  expect(ledger.byOutcome.delivered).toBe((await deliveries()).length);
}, 300_000);
