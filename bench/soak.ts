/**
 * `npm run soak`: many journeys at once with delivery and API faults on, one worker restart and one
 * bridge restart in the middle; ends with a report in docs/reliability.md. Not part of `npm test`.
 *
 * Temporal (embedded dev server) and the simulator run in this process through startStack; the
 * worker and the bridge run as child processes (SIGKILLed and started again mid-run), so that their
 * restarts are real and their memory and CPU are their own. Bounded: SOAK_JOURNEYS journeys (500),
 * short deadlines, and SOAK_MAX_MINUTES (12) after which the journeys still open are reported open.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { freePort } from '../cli/freePort';
import { workflowBundleOptions } from '../worker/workflowBundle';
import { registerWebhook, startStack } from '../cli/stack';
import { workerEnvOf } from '../cli/stackProcessEnv';
import { projectRoot } from '../cli/temporalCli';
import { journeyStatusQuery, type JourneyStatus } from '../client/journeyMessages';
import { resourceStateQuery, type ResourceState } from '../client/resourceMessages';
import { startChild, killChildren, type Child } from '../test/support/faultHarness/childProcess';
import { compareLedger, resourceStates } from '../test/support/faultHarness/deliveryLedger';
import {
  act,
  askedOf,
  newApplicant,
  startJourney,
  type Applicant,
  type JourneyPlan,
} from '../test/support/faultHarness/faultJourneys';
import { simulatorControl } from '../test/support/faultHarness/rawProviderApi';
import { auditJourneys } from './soak/journeyAudit';
import { ProcessSampler } from './soak/processSampler';
import { withFaultSuiteSection } from './soak/faultSuiteSection';
import { renderReport } from './soak/soakReport';
import { exitWhenDone } from './exitWhenDone';

const JOURNEYS = Number(process.env.SOAK_JOURNEYS ?? 500);
const MAX_MS = Number(process.env.SOAK_MAX_MINUTES ?? 12) * 60_000;
const FAULTS = {
  delivery_drop_rate: 0.05,
  delivery_duplicate_rate: 0.05,
  delivery_delay_rate: 0.05,
  delivery_delay_ms: 2_000,
  delivery_reorder_rate: 0.05,
  delivery_tamper_rate: 0.02,
  api_5xx_rate: 0.03,
  api_429_rate: 0.02,
  retry_after_seconds: 1,
};
const PLAN: JourneyPlan = { banking: true, deadline: '5 minutes', reconcileAfter: '20 seconds' };
/** The applicant acts after a random delay up to this long. */
const APPLICANT_DELAY_MS = 20_000;

/**
 * Recovered: the resource's outcome came first from polling, not from a webhook. (A resource keeps
 * polling after a webhook until a poll finds it settled, so a polled event alone proves nothing.)
 */
function settledByPolling(state: ResourceState): boolean {
  const polled = state.events.findIndex((e) => e.parse === 'polled');
  return polled >= 0 && !state.events.slice(0, polled).some((e) => e.eventType === state.events[polled]!.eventType);
}

/** A journey's status, or an 'unreadable' placeholder when the query fails (a busy worker). */
const readStatus = (h: WorkflowHandle): Promise<JourneyStatus> =>
  h
    .query(journeyStatusQuery)
    .catch(() => ({ caseId: h.workflowId, state: 'unreadable', steps: {} }) as unknown as JourneyStatus);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rounds of reads for what a busy worker could not answer at the end of the run. */
const REREAD_ROUNDS = 6;
const REREAD_PAUSE_MS = 10_000;

/** Journeys whose status could not be read are asked again, a few rounds apart. */
async function rereadUnreadable(handles: WorkflowHandle[], outcomes: JourneyStatus[]): Promise<void> {
  for (let round = 0; round < REREAD_ROUNDS; round++) {
    const missing = outcomes.flatMap((o, i) => ((o.state as string) === 'unreadable' ? [i] : []));
    if (missing.length === 0) return;
    console.log(`soak: ${missing.length} journey statuses unreadable; asking again`);
    await sleep(REREAD_PAUSE_MS);
    for (const i of missing) outcomes[i] = await readStatus(handles[i]!);
  }
}

/** Every resource workflow's state; those a busy worker could not answer are asked again, a few rounds apart. */
async function readResourceStates(
  client: Client,
  taskQueue: string,
): Promise<{ states: ResourceState[]; unreadable: string[] }> {
  let unreadable: string[] = [];
  const states = await resourceStates(client, taskQueue, (id) => unreadable.push(id));
  for (let round = 0; round < REREAD_ROUNDS && unreadable.length > 0; round++) {
    console.log(`soak: ${unreadable.length} resource states unreadable; asking again`);
    await sleep(REREAD_PAUSE_MS);
    const retry = unreadable;
    unreadable = [];
    for (const id of retry) {
      const state = await client.workflow
        .getHandle(id)
        .query(resourceStateQuery)
        .catch(() => undefined);
      if (state) states.push(state);
      else unreadable.push(id);
    }
  }
  return { states, unreadable };
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
  const sampler = new ProcessSampler();
  // Bundled once, for the stack and for every worker process (a worker bundling at each start
  // would stretch its restart by the bundling time).
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, (await bundleWorkflowCode(workflowBundleOptions())).code);
  const stack = await startStack({
    embedded: { logFile: path.join(dir, 'temporal.log') },
    workflowBundle: { codePath: bundlePath },
    simulatorSeed: 5150,
    spoolDir: path.join(dir, 'spool-inprocess'),
    processingDelayMs: 500,
  });
  // This run's worker and bridge are child processes; the stack's own would take their work.
  await stack.worker.stop();
  await stack.bridge.stop();
  sampler.watch('soak (simulator, client)', process.pid);
  sampler.watch('temporal dev server', stack.devServer!.pid);
  sampler.start();
  const control = simulatorControl(stack.simulator);
  const bridgePort = await freePort();
  // The stack's embedded case file, which the worker processes write to.
  const workerEnv = workerEnvOf(stack, bundlePath);
  const bridgeEnv = {
    TEMPORAL_ADDRESS: stack.temporal.address,
    TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
    BRIDGE_PORT: String(bridgePort),
    BRIDGE_SPOOL_DIR: path.join(dir, 'spool'),
    WEBHOOK_SECRET: stack.webhookSecret,
  };
  const startWorker = async (n: number) =>
    watched(await startChild('worker/main.ts', workerEnv, 'worker running'), `worker#${n}`);
  const startBridge = async (n: number) =>
    watched(await startChild('webhook-bridge/main.ts', bridgeEnv, 'bridge listening'), `bridge#${n}`);
  const watched = (child: Child, name: string) => (sampler.watch(name, child.child.pid!), child);
  let worker = await startWorker(1);
  let bridge = await startBridge(1);
  await registerWebhook(stack.provider, stack.simulator, `http://127.0.0.1:${bridgePort}/webhooks`);
  try {
    await control('/fault-rates', FAULTS, 'PUT');
    console.log(`soak: starting ${JOURNEYS} journeys`);
    const applicants: Applicant[] = [];
    for (let i = 0; i < JOURNEYS; i += 50)
      applicants.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, JOURNEYS - i) }, () => newApplicant(control)))),
      );
    const handles = [];
    for (let i = 0; i < applicants.length; i += 50)
      handles.push(
        ...(await Promise.all(
          applicants.slice(i, i + 50).map((a) => startJourney(stack.client, stack.temporal.taskQueue, a, PLAN)),
        )),
      );
    console.log(`soak: ${handles.length} journeys started after ${Math.round((Date.now() - started) / 1000)} s`);
    const acting = applicants.map(async (a) => {
      const ids = await askedOf(stack.caseFile, a, PLAN, MAX_MS, 3_000 + Math.random() * 2_000);
      await sleep(Math.random() * APPLICANT_DELAY_MS);
      await act(control, ids);
    });

    // Mid-run restarts: the worker, then the bridge (deliveries meanwhile are refused: lost).
    await sleep(30_000);
    sampler.sample();
    await worker.kill();
    worker = await startWorker(2);
    console.log('soak: worker restarted');
    await sleep(15_000);
    sampler.sample();
    await bridge.kill();
    bridge = await startBridge(2);
    console.log('soak: bridge restarted');

    const deadline = started + MAX_MS;
    const acted = await Promise.allSettled(acting);
    // One timer for all (unref'd: it must not keep the process alive once every journey has ended).
    const timeUp = new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref());
    const outcomes = await Promise.all(
      handles.map((h) => Promise.race([h.result().catch(() => readStatus(h)), timeUp.then(() => readStatus(h))])),
    );
    await control('/fault-rates', {}, 'PUT');
    await control('/settle', {}, 'POST');
    console.log(`soak: journeys ended after ${Math.round((Date.now() - started) / 1000)} s; auditing`);

    const deliveries = await control('/deliveries');
    await rereadUnreadable(handles, outcomes as JourneyStatus[]);
    const { states, unreadable } = await readResourceStates(stack.client, stack.temporal.taskQueue);
    const ledger = compareLedger(deliveries, states);
    const byResource = new Map<string, ResourceState>(states.map((s) => [`${s.resource.kind}/${s.resource.id}`, s]));
    const audit = auditJourneys(
      applicants.map((a, i) => ({ ...a, status: outcomes[i] as JourneyStatus })),
      stack.simulator.store,
      byResource,
    );
    const report = renderReport({
      command: `SOAK_JOURNEYS=${JOURNEYS} SOAK_MAX_MINUTES=${MAX_MS / 60_000} npm run soak`,
      journeys: JOURNEYS,
      faults: FAULTS,
      plan: PLAN,
      wallSeconds: Math.round((Date.now() - started) / 1000),
      outcomes: outcomes as JourneyStatus[],
      applicantFailures: acted.filter((r) => r.status === 'rejected').length,
      deliveries,
      ledger,
      audit,
      resourcesSettledByPolling: states.filter(settledByPolling).length,
      processes: sampler.stop(),
      unreadableResources: unreadable.length,
    });
    const reportFile = path.join(projectRoot, 'docs', 'reliability.md');
    writeFileSync(
      reportFile,
      withFaultSuiteSection(report, existsSync(reportFile) ? readFileSync(reportFile, 'utf8') : undefined),
    );
    console.log(report);
    if (ledger.notApplied.length > 0 || audit.contradictions.length > 0) process.exitCode = 1;
  } catch (error) {
    // Printed before the clean-up: stopping the stack can end the process on a stray gRPC retry.
    console.error('soak failed:', error);
    process.exitCode = 1;
  } finally {
    await worker.stop().catch(() => undefined);
    await bridge.stop().catch(() => undefined);
    killChildren();
    await stack.stop();
  }
}

exitWhenDone(main);
