/**
 * `npm run bench:looking`: what looking at journeys costs Temporal. Three
 * viewers, as an operator looks: a console case tab and the console queue (a real headless
 * Chromium, signed in) and `journey watch` (the CLI's own code), each phase for
 * BENCH_LOOKING_SECONDS (6) seconds:
 *
 * 1. on a journey that does not change (it waits for an operator's picklist choice);
 * 2. on a journey that changes every 2 s (assigned, released: one write of the read model each,
 *    the mark a journey's own write moves too);
 * 3. the baseline, in the same run: the same looking without the read model (the one client
 *    without a case file): the case tab a describe and a
 *    `status` query every 2 s, the queue a visibility list every second, the watch a `status`
 *    query every 500 ms.
 *
 * Temporal's calls are counted by the dev server itself (its Prometheus metrics by operation,
 * bench/temporalCalls.ts): queries, describes, visibility lists and counts, Update polls; the
 * watch's long poll for the journey's close (GetWorkflowExecutionHistory, no worker, not billed) is
 * shown apart. Reads of the read model are counted per viewer (page fetches, the watch's reads of
 * the case). Target: 0 calls a minute while nothing changes; at most one read per viewer and change.
 * One hour of a console case tab is priced in Temporal Cloud actions (a query is one; describes
 * and lists are not billed) at bench:cost's list price.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium } from './looking/headlessChromium';
import { generateApiKey, hashApiKey } from '../case-api/apiKeys';
import { startDevServer } from '../cli/devServer';
import { freePort } from '../cli/freePort';
import { startStack, type Stack } from '../cli/stack';
import { resolveTemporalCli } from '../cli/temporalCli';
import { journeyStatusQuery } from '../client/journeyMessages';
import { simulatorControl } from '../test/support/faultHarness/rawProviderApi';
import { dollarsFor, LIST_PRICE_PER_MILLION_ACTIONS_USD } from './journeyCost/billableActions';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { exitWhenDone } from './exitWhenDone';
import { exitCodeOf, reportResult, reportSize, type BenchResult } from './benchResult';
import { openConsoleViewer, untilTrue, watchJourney, type ConsoleViewer, type WatchViewer } from './looking/viewers';
import {
  callsBetween,
  closeLongPoll,
  lookingCalls,
  sumOf,
  TemporalCallCounter,
  type CallCounts,
} from './temporalCalls';

const SECONDS = Number(process.env.BENCH_LOOKING_SECONDS ?? 6);
const CHANGE_EVERY_MS = 2_000;
const BARRIER_NAMESPACE = 'metrics_barrier';
const keys = { operator: generateApiKey('operator'), lender: generateApiKey('origination') };

interface Phase {
  name: string;
  calls: CallCounts;
  /** Looking calls a minute, by operation. */
  perMinute: Record<string, number>;
  total: number;
  closePolls: number;
  reads?: Record<string, number>;
  changes?: number;
}

const perMinute = (count: number) => Math.round(((count * 60) / SECONDS) * 10) / 10;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function main(): Promise<number> {
  reportSize(`${SECONDS} s per phase (BENCH_LOOKING_SECONDS), 3 phases, figures scaled to a minute`);
  // The stack's worker logs at WARN: its state changes at INFO are not the bench's output.
  installRuntimeLogging();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-looking-'));
  const server = await startDevServer({
    cliPath: await resolveTemporalCli({ log: (line) => console.log(line) }),
    metricsPort: await freePort(),
    logFile: path.join(dir, 'temporal.log'),
    extraNamespaces: [BARRIER_NAMESPACE],
  });
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const watches: { caseId: string; viewer: WatchViewer }[] = [];
  try {
    const caseApi = {
      port: 0,
      keys: [
        { name: 'ada', role: 'operator' as const, hash: hashApiKey(keys.operator) },
        { name: 'lender', role: 'origination' as const, hash: hashApiKey(keys.lender) },
      ],
      maxBodyBytes: 64 * 1024,
      rateLimitPerMinute: 100_000,
      sessionSecret: randomBytes(32).toString('base64url'),
    };
    const running = await startStack({
      temporal: { address: server.address, namespace: 'default', taskQueue: `looking-${randomUUID()}` },
      caseFile: { embedded: {} },
      processingDelayMs: 0,
      spoolDir: path.join(dir, 'spool'),
      caseApi,
    });
    stack = running;
    const counter = new TemporalCallCounter(
      server.metricsUrl!,
      'default',
      running.client.connection,
      BARRIER_NAMESPACE,
    );
    if (chromiumPath) browser = await launchChromium();
    else
      console.log(
        'no Chromium found (CHROMIUM_PATH, /usr/bin/chromium): the console viewers are left out, journey watch alone is measured',
      );

    const [still, changing] = await Promise.all([startWaitingCase(running), startWaitingCase(running)]);
    const watch = (caseId: string) => {
      const viewer = watchJourney(running.client, running.temporal.taskQueue, running.caseFile, caseId);
      watches.push({ caseId, viewer });
      return viewer;
    };
    const open = async (caseId: string) => {
      const pages = browser
        ? {
            caseTab: await openConsoleViewer(browser, running.caseApi.url, keys.operator, `/console/cases/${caseId}`),
            queue: await openConsoleViewer(browser, running.caseApi.url, keys.operator, '/console'),
          }
        : {};
      const watching = watch(caseId);
      await untilTrue(() => watching.seen.length > 0, 'journey watch shows the case');
      return { ...pages, watch: watching };
    };
    const readsOf = (viewers: { caseTab?: ConsoleViewer; queue?: ConsoleViewer; watch: WatchViewer }) => ({
      ...(viewers.caseTab ? { caseTab: viewers.caseTab.reads() } : {}),
      ...(viewers.queue ? { queue: viewers.queue.reads() } : {}),
      watch: viewers.watch.reads(),
    });
    const measure = async (name: string, during: () => Promise<void>): Promise<Phase> => {
      const before = await counter.snapshot();
      await during();
      const calls = callsBetween(before, await counter.snapshot());
      const looking = lookingCalls(calls);
      return {
        name,
        calls,
        perMinute: Object.fromEntries(Object.entries(looking).map(([o, n]) => [o, perMinute(n)])),
        total: perMinute(sumOf(looking)),
        closePolls: perMinute(calls[closeLongPoll] ?? 0),
      };
    };

    // 1. A journey that does not change.
    const stillViewers = await open(still);
    let readsBefore = readsOf(stillViewers);
    const unchanging = await measure('unchanging journey', () => sleep(SECONDS * 1000));
    unchanging.reads = diff(readsBefore, readsOf(stillViewers));
    await stillViewers.caseTab?.close();
    await stillViewers.queue?.close();

    // 2. A journey that changes every 2 s.
    const changingViewers = await open(changing);
    readsBefore = readsOf(changingViewers);
    const api = (p: string, body: unknown) =>
      fetch(`${running.caseApi.url}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.operator}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let changes = 0;
    const changed = await measure('changing journey', async () => {
      const end = Date.now() + SECONDS * 1000;
      while (Date.now() + CHANGE_EVERY_MS <= end) {
        const answer = await api(`/v1/cases/${changing}/assign`, { assignee: changes % 2 === 0 ? 'ada' : null });
        if (answer.status !== 200) throw new Error(`assign answered ${answer.status}`);
        changes += 1;
        await sleep(CHANGE_EVERY_MS);
      }
      await sleep(end - Date.now());
    });
    changed.reads = diff(readsBefore, readsOf(changingViewers));
    changed.changes = changes;
    await changingViewers.caseTab?.close();
    await changingViewers.queue?.close();

    // 3. The baseline: the same looking without the read model, by Temporal queries, describes and lists.
    const old = {
      status: async (caseId: string) => {
        const handle = running.client.workflow.getHandle(`case/${caseId}`);
        await handle.describe();
        return handle.query(journeyStatusQuery);
      },
      list: (pageSize: number) =>
        running.client.workflowService.listWorkflowExecutions({
          namespace: running.client.options.namespace,
          query: `WorkflowType = "onboardCase" AND TaskQueue = "${running.temporal.taskQueue}"`,
          pageSize,
        }),
    };
    const baselineCalls = { caseTab: 0, queue: 0, watch: 0 };
    const baseline = await measure('baseline: describe + query, visibility list', async () => {
      const end = Date.now() + SECONDS * 1000;
      const every = async (ms: number, look: () => Promise<unknown>, count: () => void) => {
        while (Date.now() < end) {
          await look();
          count();
          await sleep(Math.min(ms, Math.max(0, end - Date.now())));
        }
      };
      const handle = running.client.workflow.getHandle(`case/${changing}`);
      await Promise.all([
        browser
          ? every(
              2_000,
              () => old.status(changing),
              () => (baselineCalls.caseTab += 1),
            )
          : undefined,
        browser
          ? every(
              1_000,
              () => old.list(50),
              () => (baselineCalls.queue += 1),
            )
          : undefined,
        every(
          500,
          () => handle.query(journeyStatusQuery),
          () => (baselineCalls.watch += 1),
        ),
      ]);
    });

    print([unchanging, changed, baseline]);
    console.log(
      `baseline looks made: case tab ${baselineCalls.caseTab} (a describe and a query each), queue ${baselineCalls.queue} (a list each), watch ${baselineCalls.watch} (a query each)`,
    );
    const results = report(unchanging, changed, baseline, Boolean(browser), (baselineCalls.caseTab * 3600) / SECONDS);
    return exitCodeOf(results);
  } finally {
    for (const { caseId } of watches)
      await stack?.client.workflow
        .getHandle(`case/${caseId}`)
        .cancel()
        .catch(() => undefined);
    for (const { viewer } of watches) await viewer.done.catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    await server.stop();
  }
}

/** A journey whose credit report waits for an operator's picklist choice: it does not change by itself for an hour. */
async function startWaitingCase(stack: Stack): Promise<string> {
  const control = simulatorControl(stack.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const input = {
    caseId,
    company: { company_id: ambiguous.company_id, company_name: 'Ambiguous Foods Ltd' },
    steps: { creditReport: true },
    deadlines: { picklist: '1 hour', operatorDecision: '1 hour' },
  };
  const res = await fetch(`${stack.caseApi.url}/v1/cases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys.lender}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (res.status !== 201) throw new Error(`POST /v1/cases answered ${res.status}`);
  const deadline = Date.now() + 30_000;
  while (!(await stack.caseFile.caseRecord(caseId))?.picklist?.length) {
    if (Date.now() > deadline) throw new Error(`case ${caseId} never waited for its picklist`);
    await sleep(100);
  }
  return caseId;
}

function diff(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
}

function print(phases: Phase[]): void {
  console.log(`\nTemporal calls a minute (dev server metrics, ${SECONDS} s per phase, scaled to a minute):`);
  console.log(
    [
      'phase'.padEnd(46),
      'queries',
      'describes',
      'lists',
      'counts',
      'update polls',
      'all looking',
      'close long polls',
      'reads per viewer',
      'changes',
    ].join('\t'),
  );
  for (const p of phases) {
    const m = p.perMinute;
    const lists =
      (m.ListWorkflowExecutions ?? 0) +
      (m.ScanWorkflowExecutions ?? 0) +
      (m.ListOpenWorkflowExecutions ?? 0) +
      (m.ListClosedWorkflowExecutions ?? 0);
    console.log(
      [
        p.name.padEnd(46),
        m.QueryWorkflow,
        m.DescribeWorkflowExecution,
        lists,
        m.CountWorkflowExecutions,
        m.PollWorkflowExecutionUpdate,
        p.total,
        p.closePolls,
        p.reads ? JSON.stringify(p.reads) : '-',
        p.changes ?? '-',
      ].join('\t'),
    );
  }
}

function report(
  unchanging: Phase,
  changed: Phase,
  baseline: Phase,
  withConsole: boolean,
  oldTabQueriesPerHour: number,
): BenchResult[] {
  const viewers = withConsole ? 'a console case tab, the queue and journey watch' : 'journey watch';
  const baselineName =
    'the same looking by describe + status query (tab, 2 s), visibility list (queue, 1 s), status query (watch, 0.5 s)';
  const ratio = (figure: number) => (baseline.total > 0 ? Math.round((figure / baseline.total) * 1000) / 1000 : null);
  const results: BenchResult[] = [];
  results.push(
    reportResult({
      name: 'unchanging journey',
      figure: unchanging.total,
      unit: `Temporal calls/min (${viewers})`,
      baseline: baseline.total,
      baselineName,
      ratio: ratio(unchanging.total),
      target: '0 calls while nothing changes',
      pass: unchanging.total === 0,
    }),
  );
  results.push(
    reportResult({
      name: 'changing journey',
      figure: changed.total,
      unit: `Temporal calls/min (${viewers}, a change every ${CHANGE_EVERY_MS / 1000} s)`,
      baseline: baseline.total,
      baselineName,
      ratio: ratio(changed.total),
      target: 'none',
      pass: null,
    }),
  );
  const worst = Math.max(...Object.values(changed.reads ?? {}).map((r) => r / Math.max(1, changed.changes ?? 0)));
  results.push(
    reportResult({
      name: 'reads per change',
      figure: Math.round(worst * 100) / 100,
      unit: 'reads of the read model per viewer and change (most of any viewer)',
      baseline: null,
      baselineName: 'none',
      ratio: null,
      target: '≤ 1',
      pass: worst <= 1,
    }),
  );
  // An hour of a console case tab in Temporal Cloud actions: a query is one (describes and lists
  // are not billed). Now: the queries of the unchanging phase, all three viewers' (an upper bound
  // for the tab alone); the baseline: the queries of the tab without the read model, as made in this run.
  if (withConsole) {
    const tabNow = Math.round(unchanging.perMinute.QueryWorkflow! * 60);
    const old = Math.round(oldTabQueriesPerHour);
    results.push(
      reportResult({
        name: 'a console case tab open an hour',
        figure: tabNow,
        unit: `Temporal Cloud actions ($${dollarsFor(tabNow).toFixed(4)} at $${LIST_PRICE_PER_MILLION_ACTIONS_USD}/M)`,
        baseline: old,
        baselineName: `the old tab's status queries, every 2 s ($${dollarsFor(old).toFixed(4)})`,
        ratio: old > 0 ? tabNow / old : null,
        target: 'none',
        pass: null,
      }),
    );
  }
  console.log(
    `\nbaseline: ${baseline.total} looking calls a minute (${JSON.stringify(baseline.perMinute)}); now ${unchanging.total} on an unchanging journey, ${changed.total} on one changing every ${CHANGE_EVERY_MS / 1000} s; the watch's close long poll ${unchanging.closePolls} a minute`,
  );
  return results;
}

exitWhenDone(main);
