/**
 * The console's funnel page in a real headless Chromium over the 30 journeys of
 * test/support/funnelJourneys.ts: from the queue's link, the operator picks the range and the
 * grouping, Chart.js (served by the API from node_modules, under the console's CSP) draws the three
 * charts, the table holds the figures, and the CSV link downloads them. The screenshot goes to the
 * test's temporary folder, or to docs/console-funnel.png with CONSOLE_SCREENSHOTS=docs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Browser, Page } from 'playwright-core';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { consoleRouter } from '../../case-api/console/consoleRouter';
import type { CaseApiConfig } from '../../case-api/config';
import { startCaseApi, type RunningCaseApi } from '../../case-api/startCaseApi';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { chromiumPath, launchChromium, signInWithKey } from '../../bench/looking/headlessChromium';
import { testDirectory } from '../setup/testEnvironment';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';
import { writeFunnelJourneys } from '../support/funnelJourneys';

const shots =
  process.env.CONSOLE_SCREENSHOTS === 'docs' ? path.join(__dirname, '../../docs') : testDirectory('funnel-screenshots');
const describeWithChromium = chromiumPath ? describe : describe.skip;
const operatorKey = generateApiKey('operator');

describeWithChromium('the funnel page in the console', () => {
  let caseFile: CaseFileProcess;
  let store: CaseFileStore;
  let api: RunningCaseApi;
  let connection: Connection;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    caseFile = await startCaseFileProcess();
    store = await openCaseFile(caseFile.url, 1);
    await writeFunnelJourneys(store.pool);
    const config: CaseApiConfig = {
      port: 0,
      keys: [{ name: 'ada', role: 'operator', hash: hashApiKey(operatorKey) }],
      maxBodyBytes: 64 * 1024,
      rateLimitPerMinute: 10_000,
      sessionSecret: randomBytes(32).toString('base64url'),
    };
    // Nothing listens on port 1: the funnel and the queue read the case file only.
    connection = Connection.lazy({ address: '127.0.0.1:1' });
    api = await startCaseApi(config, {
      client: new Client({ connection }),
      taskQueue: 'funnel-console-test',
      caseFile: store,
      routers: (gateway) => [consoleRouter(config, gateway, { namespace: 'default' })],
    });
    browser = await launchChromium();
    page = await signInWithKey(browser, api.url, operatorKey, { width: 1280, height: 1400 });
  });

  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
    await api?.stop();
    await connection?.close();
    await store?.close();
    await caseFile?.stop();
  });

  test('from the queue, an operator sees where applicants drop off as charts and a table, and downloads the CSV', async () => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));

    // From the queue, whichever page another test of this file left the browser on (jest may run
    // them in a random order, as CI does).
    await page.goto(`${api.url}/console`);
    await page.click('a#funnel').catch(async (error: unknown) => {
      // Which page the browser is on, for a failure to say why the link is missing.
      const shown = (await page.textContent('body').catch(() => null))?.replace(/\s+/g, ' ').slice(0, 500);
      throw new Error(`no funnel link on ${page.url()}: ${shown}`, { cause: error });
    });
    await page.waitForURL(/\/console\/funnel/);
    await page.fill('input[name=from]', '2026-11-01');
    await page.fill('input[name=to]', '2026-11-30');
    await page.selectOption('select[name=groupBy]', 'week');
    await page.click('form.filters button');
    await page.waitForURL(/from=2026-11-01&to=2026-11-30&groupBy=week/);
    await page.waitForSelector('body[data-charts=drawn]');

    // Chart.js drew each chart: an instance per canvas, with the steps of the range as its labels.
    const charts = await page.evaluate(() =>
      ['funnel-outcomes', 'funnel-waits', 'funnel-first-action'].map((id) => {
        const chart = (
          globalThis as unknown as { Chart: { getChart(id: string): { data: { labels: string[] } } } }
        ).Chart.getChart(id);
        return chart?.data.labels;
      }),
    );
    expect(charts).toEqual(Array(3).fill(['credit-report', 'identity-verification', 'banking']));
    expect(await page.textContent('#funnel-cases')).toBe('30');
    const banking = await page.locator('table.funnel').first().locator('tr[data-step=banking] td').allTextContents();
    expect(banking).toEqual([
      'banking',
      '30',
      '10',
      '10',
      '10',
      '20',
      '10',
      '90 min / 120 min',
      '30 min / 60 min',
      '0 min / 10 min',
      '60 min / 60 min',
      '40 min / 50 min',
    ]);
    await page.screenshot({ path: path.join(shots, 'console-funnel.png'), fullPage: false });

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('a#funnel-csv')]);
    expect(download.suggestedFilename()).toBe('funnel-2026-11-01-2026-11-30-week.csv');
    const csv = readFileSync((await download.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv).toContain(
      'total,banking,30,10,10,10,20,10,30,5400,7200,30,1800,3600,30,0,600,30,3600,3600,20,2400,3000',
    );
    // No script refused by the CSP, none failed.
    expect(problems).toEqual([]);
  });

  test('a bad range is answered 400 on the page, naming the parameter', async () => {
    const response = await page.goto(`${api.url}/console/funnel?from=2026-11-30&to=2026-11-01`);
    expect(response?.status()).toBe(400);
    expect(await page.textContent('[role=alert]')).toContain('from: must not be after to');
  });
});
