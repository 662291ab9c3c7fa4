/**
 * The operator console in a real headless Chromium (Debian's `chromium`, driven by playwright-core)
 * against a running stack: sign in with an operator key, find a case in the queue, choose the
 * company of a picklist, retry an expired IDV, and check the journeys in Temporal afterwards.
 * Screenshots of the queue and the case pages go to the test's temporary folder, or to docs/ with
 * CONSOLE_SCREENSHOTS=docs (so an ordinary test run leaves the work tree clean).
 */
import type { CreditReportDetail } from '../../client/creditReportMessages';
import type { Company } from '../../simulator/store';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { chromiumPath, launchChromium, signInWithKey } from '../../bench/looking/headlessChromium';

if (!chromiumPath)
  console.warn(
    'console test skipped: no chromium binary (apt-get install -y chromium, or set CHROMIUM_PATH); .ci/run installs it',
  );
const shots =
  process.env.CONSOLE_SCREENSHOTS === 'docs' ? path.join(__dirname, '../../docs') : testDirectory('screenshots');
const shot = (name: string) => path.join(shots, name);
const describeWithChromium = chromiumPath ? describe : describe.skip;

describeWithChromium('operator console', () => {
  let stack: Stack;
  let browser: Browser;
  const pages: Page[] = [];
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);
  const fast = {
    identityVerification: '30 seconds',
    banking: '30 seconds',
    picklist: '2 minutes',
    operatorDecision: '1 hour',
  };

  beforeAll(async () => {
    stack = await startStack({
      temporal: testTemporalConfig(),
      caseFile: testCaseFileOption(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 1203,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 20,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const page of pages) await page.context().close();
    await browser?.close();
    await stack?.stop();
  });

  async function start(input: Record<string, unknown> & { caseId: string }) {
    return startOnboardCase(stack.client, {
      workflowId: `case/${input.caseId}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ ...input, deadlines: fast } as never],
    });
  }

  /** A page in a browser context of its own (each test signs in itself: jest --randomize runs them in any order). */
  async function newPage(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    pages.push(page);
    return page;
  }

  async function signedIn(): Promise<Page> {
    const page = await signInWithKey(browser, stack.caseApi.url, stack.caseApiKeys!.operator, {
      width: 1200,
      height: 800,
    });
    pages.push(page);
    return page;
  }

  test('signing in needs an operator key; the session cookie is HttpOnly and SameSite=Strict', async () => {
    const page = await newPage();
    await page.goto(`${stack.caseApi.url}/console`);
    expect(page.url()).toMatch(/\/console\/login$/);
    await page.fill('input[name=key]', stack.caseApiKeys!.origination);
    await page.click('button');
    await expect(page.textContent('[role=alert]')).resolves.toContain('operator key');
    await page.fill('input[name=key]', stack.caseApiKeys!.operator);
    await page.click('button');
    await page.waitForURL(/\/console$/);
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'vj_console', httpOnly: true, sameSite: 'Strict', path: '/console' });
    // A form posted without the session's CSRF token is refused.
    const forged = await page.request.post(`${stack.caseApi.url}/console/cases/any-case/cancel`, {
      form: { reason: 'x' },
    });
    expect(forged.status()).toBe(403);
  });

  test('an operator chooses the company of a picklist and retries an expired IDV from the pages', async () => {
    const page = await signedIn();
    const picklistCaseId = (await control('/cases', {})).case_id as string;
    const ambiguous = ((await control('/companies')) as Company[]).find(
      (c) => c.company_name === 'Ambiguous Foods Ltd',
    )!;
    const picklistJourney = await start({
      caseId: picklistCaseId,
      company: { company_id: ambiguous.company_id },
      steps: { creditReport: true },
    });
    const idvCaseId = (await control('/cases', {})).case_id as string;
    const personId = (await control('/persons', {})).person_id as string;
    const idv = `identity-verification/${personId}`;
    const idvJourney = await start({
      caseId: idvCaseId,
      people: [{ personId }],
      steps: { identityVerification: true },
    });
    const waiting = await waitForStatus(idvJourney, journeyStatusQuery, (s) => s.steps[idv]?.state === 'waiting');
    await control(`/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/expire`, {});
    await waitForStatus(idvJourney, journeyStatusQuery, (s) => s.operatorDeadline != null);
    await waitForStatus(picklistJourney, journeyStatusQuery, (s) => s.state === 'needs_attention');

    // The queue shows both cases (it refreshes itself; visibility lags the journey by a moment).
    await page.goto(`${stack.caseApi.url}/console`);
    await page.waitForSelector(`a[href="/console/cases/${idvCaseId}"]`, { timeout: 15_000 });
    await page.waitForSelector(`a[href="/console/cases/${picklistCaseId}"]`, { timeout: 15_000 });
    await page.screenshot({ path: shot('console-queue.png') });

    await page.click(`a[href="/console/cases/${picklistCaseId}"]`);
    await page.waitForSelector('input[name=providerId]');
    await page.screenshot({ path: shot('console-case-picklist.png'), fullPage: true });
    const choice = await page.getAttribute('input[name=providerId] >> nth=1', 'value');
    await page.check(`input[name=providerId][value="${choice}"]`);
    await page.click('text=Choose this company');
    await expect(page.textContent('[role=status]')).resolves.toContain(`company ${choice} chosen`);
    const resolved = await picklistJourney.result();
    expect(resolved.state).toBe('completed');
    expect((resolved.steps['credit-report']!.detail as CreditReportDetail).report!.provider_id).toBe(choice);

    await page.goto(`${stack.caseApi.url}/console/cases/${idvCaseId}`);
    await page.screenshot({ path: shot('console-case-needs-attention.png'), fullPage: true });
    await page.click(`tr[data-step="${idv}"] >> text=Retry`);
    await expect(page.textContent('[role=status]')).resolves.toContain(`${idv} is running again`);
    const retried = await waitForStatus(
      idvJourney,
      journeyStatusQuery,
      (s) => s.steps[idv]?.attempt === 2 && s.steps[idv]!.state === 'waiting',
    );
    expect(retried.state).toBe('running');
    // The page follows the journey live: the applicant completes, and the page says so without a reload.
    await control(`/identity-verifications/${retried.steps[idv]!.providerIds.request_id}/complete`, {
      verification_status: 'Approved',
    });
    await page.locator('#journey-state', { hasText: /^completed$/ }).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: shot('console-case-completed.png'), fullPage: true });
    expect((await idvJourney.result()).state).toBe('completed');

    // A refused action shows the journey's own message.
    const otherCase = (await control('/cases', {})).case_id as string;
    const other = await start({
      caseId: otherCase,
      company: { company_id: ambiguous.company_id },
      steps: { creditReport: true },
    });
    await waitForStatus(other, journeyStatusQuery, (s) => s.state === 'needs_attention');
    await page.goto(`${stack.caseApi.url}/console/cases/${otherCase}`);
    await page.fill('tr[data-step="credit-report"] input[name=reason]', 'checked by phone');
    await page.click('tr[data-step="credit-report"] >> text=Waive');
    await expect(page.textContent('[role=status]')).resolves.toContain('credit-report waived');
    expect((await other.result()).steps['credit-report']!.state).toBe('waived');
  });
});
