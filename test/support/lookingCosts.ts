/**
 * Looking costs no Temporal calls: a console case tab and the console queue (a real
 * headless Chromium, signed in) and `journey watch` (the CLI's own code) open on a journey that
 * does not change make no query, no describe, no visibility list or count and no Update poll,
 * counted by the Temporal dev server itself (its Prometheus metrics, by operation: every process
 * counts, the browser's API process and the CLI's alike). A call a read would make is counted: one
 * `status` query and one describe made during the window show as exactly one of each. Then one
 * change of the case costs each viewer one read of the read model: the page fetched once, the
 * watch's status read once.
 *
 * The suite runs its own dev server (with a metrics port) and its own case file, so that no other
 * suite's calls mix in and no other suite's journeys move the queue's mark (jest runs two suites at
 * a time). The suites differ in the window and the console's long poll only:
 * test/api/lookingCostsNothing.test.ts (`npm test`) watches 12 s with a 4-s long poll, to stay
 * short; test/faults/lookingCostsNothingForAMinute.test.ts watches the minute with the
 * console as deployed (CONSOLE_LONG_POLL_SECONDS unset, 25 s).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { chromiumPath, launchChromium } from '../../bench/looking/headlessChromium';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { readCaseApiConfig } from '../../case-api/config';
import { startDevServer, type DevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import type { Outcome } from '../../cli/journeyProgram';
import { startStack, type Stack } from '../../cli/stack';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { callsBetween, closeLongPoll, lookingCalls, TemporalCallCounter } from '../../bench/temporalCalls';
import { simulatorControl } from './faultHarness/rawProviderApi';
import { openConsoleViewer, watchJourney } from '../../bench/looking/viewers';
import { testDirectory, testWorkflowBundle } from '../setup/testEnvironment';
import { caseApiClient } from './caseApiClient';
import { caseFileOptionOf, startCaseFileProcess, type CaseFileProcess } from './caseFileProcess';
import { waitUntil } from './waitUntil';

export interface LookingCostsOptions {
  /** How long the viewers look at the unchanging journey while the dev server counts. */
  windowMs: number;
  /** The console's CONSOLE_LONG_POLL_SECONDS; undefined: unset, the console's default (25 s). */
  consoleLongPollSeconds: number | undefined;
}

/** How long `journey watch`'s wait for the journey's close (`handle.result()`) is held before the client renews it. */
const WATCH_CLOSE_POLL_MS = 20_000;
const BARRIER_NAMESPACE = 'metrics_barrier';

export function lookingCostsNothingSuite({ windowMs, consoleLongPollSeconds }: LookingCostsOptions): void {
  const describeWithChromium = chromiumPath ? describe : describe.skip;
  const keys = { ada: generateApiKey('operator'), lender: generateApiKey('origination') };
  // The case API's configuration read from its environment as a deployment's is, so that an unset
  // CONSOLE_LONG_POLL_SECONDS means the console's own default.
  const caseApi = readCaseApiConfig({
    CASE_API_PORT: '0',
    CASE_API_KEYS: `ada:operator:${hashApiKey(keys.ada).toString('hex')},lender:origination:${hashApiKey(keys.lender).toString('hex')}`,
    CASE_API_RATE_LIMIT: '10000',
    CASE_API_SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...(consoleLongPollSeconds === undefined ? {} : { CONSOLE_LONG_POLL_SECONDS: String(consoleLongPollSeconds) }),
  });
  const longPollMs = caseApi.consoleLongPollMs!;
  // The window must hold a renewal of every page's long poll, or it would not show what waiting costs.
  if (windowMs < 2 * longPollMs)
    throw new Error(`a ${windowMs}-ms window holds no renewal of a ${longPollMs}-ms long poll for sure`);
  const seconds = (ms: number) => `${ms / 1000} s`;

  describeWithChromium(
    `looking at a journey for ${seconds(windowMs)} (console long poll ${seconds(longPollMs)}) costs no Temporal calls`,
    () => {
      let server: DevServer;
      let caseFile: CaseFileProcess;
      let stack: Stack;
      let browser: Browser;
      let counter: TemporalCallCounter;
      /** A watch still following a journey when a test failed midway: ended before the stack stops. */
      let openWatch: { caseId: string; done: Promise<Outcome> } | undefined;

      beforeAll(async () => {
        const dir = testDirectory('looking');
        [server, caseFile] = await Promise.all([
          startDevServer({
            cliPath: await resolveTemporalCli(),
            metricsPort: await freePort(),
            logFile: path.join(dir, 'temporal-dev-server.log'),
            extraNamespaces: [BARRIER_NAMESPACE],
          }),
          startCaseFileProcess(),
        ]);
        stack = await startStack({
          temporal: { address: server.address, namespace: 'default', taskQueue: `looking-${randomUUID()}` },
          caseFile: caseFileOptionOf(caseFile),
          workflowBundle: testWorkflowBundle(),
          simulatorSeed: 2422,
          spoolDir: path.join(dir, 'spool'),
          processingDelayMs: 20,
          caseApi,
        });
        counter = new TemporalCallCounter(server.metricsUrl!, 'default', stack.client.connection, BARRIER_NAMESPACE);
        browser = await launchChromium();
      }, 60_000);

      afterAll(async () => {
        if (openWatch) {
          await stack.client.workflow
            .getHandle(`case/${openWatch.caseId}`)
            .cancel()
            .catch(() => undefined);
          await openWatch.done.catch(() => undefined);
        }
        await browser?.close();
        await stack?.stop();
        await caseFile?.stop();
        await server?.stop();
      });

      const viewer = (pagePath: string) => openConsoleViewer(browser, stack.caseApi.url, keys.ada, pagePath);
      const watch = (caseId: string) => watchJourney(stack.client, stack.temporal.taskQueue, stack.caseFile, caseId);

      test(
        'a case tab, the queue and journey watch on an unchanging journey make no query, describe or list; one change costs each one read',
        async () => {
          const control = simulatorControl(stack.simulator);
          const api = caseApiClient(stack.caseApi.url);
          // A journey that waits for an operator to choose a company from the credit report's
          // picklist: it does not change by itself.
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
          expect((await api('POST', '/v1/cases', { key: keys.lender, body: input })).status).toBe(201);
          await waitUntil(
            'the journey waits for the picklist',
            async () => (await stack.caseFile.caseRecord(caseId))?.picklist?.length,
          );

          const caseTab = await viewer(`/console/cases/${caseId}`);
          const queue = await viewer('/console');
          const watching = watch(caseId);
          openWatch = { caseId, done: watching.done };
          await waitUntil('journey watch shows the case', () =>
            watching.seen.some((s) => s.state === 'needs_attention'),
          );
          const readsBefore = { caseTab: caseTab.reads(), queue: queue.reads(), watch: watching.reads() };

          const before = await counter.snapshot();
          const pollsBefore = { caseTab: caseTab.polls(), queue: queue.polls() };
          // A fixed window in which nothing changes is the point of this test: whatever the viewers
          // cost while they wait shows in it. Midway, one status query and one describe, as a read of
          // Temporal would make: the metrics must count them.
          await new Promise((r) => setTimeout(r, windowMs / 2));
          const handle = stack.client.workflow.getHandle(`case/${caseId}`);
          await handle.query('status');
          await handle.describe();
          await new Promise((r) => setTimeout(r, windowMs / 2));
          const pollsInWindow = {
            caseTab: caseTab.polls() - pollsBefore.caseTab,
            queue: queue.polls() - pollsBefore.queue,
          };
          const window = callsBetween(before, await counter.snapshot());

          expect(lookingCalls(window)).toEqual({
            QueryWorkflow: 1,
            DescribeWorkflowExecution: 1,
            ListWorkflowExecutions: 0,
            CountWorkflowExecutions: 0,
            ScanWorkflowExecutions: 0,
            ListOpenWorkflowExecutions: 0,
            ListClosedWorkflowExecutions: 0,
            PollWorkflowExecutionUpdate: 0,
          });
          // The watch holds one long poll for the journey's close (no worker, not billed): it is renewed
          // every 20 s, not once per look.
          expect(window[closeLongPoll] ?? 0).toBeLessThanOrEqual(Math.ceil(windowMs / WATCH_CLOSE_POLL_MS) + 1);
          // Nor did any viewer read the case or the queue again while nothing changed.
          expect({ caseTab: caseTab.reads(), queue: queue.reads(), watch: watching.reads() }).toEqual(readsBefore);
          // Each page renewed its long poll inside the window, at no cost: the server answers 204 after
          // the long poll's length and the page asks again at once, so a new one starts at least every
          // long poll (one may have started just before the window).
          const renewals = Math.ceil(windowMs / longPollMs) - 1;
          expect(pollsInWindow.caseTab).toBeGreaterThanOrEqual(renewals);
          expect(pollsInWindow.queue).toBeGreaterThanOrEqual(renewals);

          // One change of the case (one write of the read model: the case's mark moves once).
          const beforeChange = await counter.snapshot();
          const pollsBeforeChange = { caseTab: caseTab.polls(), queue: queue.polls() };
          expect(
            (await api('POST', `/v1/cases/${caseId}/assign`, { key: keys.ada, body: { assignee: 'ada' } })).status,
          ).toBe(200);
          await caseTab.page.locator('#owner', { hasText: /^ada$/ }).waitFor({ timeout: 15_000 });
          await queue.page
            .locator(`tr[data-case="${caseId}"] td.owner`, { hasText: 'ada' })
            .waitFor({ timeout: 15_000 });
          await waitUntil('journey watch shows the assignment', () => watching.seen.some((s) => s.assignee === 'ada'));
          // Each page waits again (its next long poll went out after its one read).
          await waitUntil(
            'the pages wait again',
            () => caseTab.polls() > pollsBeforeChange.caseTab && queue.polls() > pollsBeforeChange.queue,
          );
          expect({
            caseTab: caseTab.reads() - readsBefore.caseTab,
            queue: queue.reads() - readsBefore.queue,
            watch: watching.reads() - readsBefore.watch,
          }).toEqual({ caseTab: 1, queue: 1, watch: 1 });
          const change = lookingCalls(callsBetween(beforeChange, await counter.snapshot()));
          expect(Object.values(change).every((calls) => calls === 0)).toBe(true);

          await handle.cancel();
          await expect(watching.done).resolves.toMatchObject({ failed: true });
          openWatch = undefined;
          expect(watching.seen.at(-1)).toEqual({ caseId, ended: 'cancelled' });
        },
        windowMs + 78_000,
      );
    },
  );
}
