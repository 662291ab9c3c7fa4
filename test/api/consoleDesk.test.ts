/**
 * The operations desk in a real headless Chromium, as the console's own test runs it:
 * two operators signed in by name (named operator keys) in two browser contexts. Ada filters the
 * queue by an applicant's name, opens the case (IDV by the person's name, the evidence with the
 * accounts' money chart), assigns it to herself, and waives the credit report with a reason; the
 * timeline names her, the reason and the time; Grace's open case page shows the assignment live,
 * without reloading. The queue shows the other case, which waits on its picklist, with the
 * picklist's expiry as its deadline; the case page's timeline shows what the lender's system was
 * told (the stack sends case events to a receiver of the test's). Screenshots of the queue and the
 * case page go to the test's temporary folder, or to docs/ with CONSOLE_SCREENSHOTS=docs.
 * Then Ada gives another case to Grace with the case page's colleague form and later releases it:
 * the case page, both operators' queues (Grace's live) and the timeline show the owner and who did
 * what, when.
 */
import type { Company } from '../../simulator/store';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { chromiumPath, launchChromium, signInWithKey } from '../../bench/looking/headlessChromium';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const shots =
  process.env.CONSOLE_SCREENSHOTS === 'docs' ? path.join(__dirname, '../../docs') : testDirectory('desk-screenshots');
const describeWithChromium = chromiumPath ? describe : describe.skip;

const keys = {
  ada: generateApiKey('operator'),
  grace: generateApiKey('operator'),
  lender: generateApiKey('origination'),
};

describeWithChromium('the operations desk in the console', () => {
  let stack: Stack;
  let browser: Browser;
  let receiver: WebhookReceiver;
  const pages: Page[] = [];
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);

  beforeAll(async () => {
    const caseApi = {
      port: 0,
      keys: [
        { name: 'ada', role: 'operator' as const, hash: hashApiKey(keys.ada) },
        { name: 'grace', role: 'operator' as const, hash: hashApiKey(keys.grace) },
        { name: 'lender', role: 'origination' as const, hash: hashApiKey(keys.lender) },
      ],
      maxBodyBytes: 64 * 1024,
      rateLimitPerMinute: 10_000,
      sessionSecret: randomBytes(32).toString('base64url'),
    };
    // The lender's system: the journeys' events and the operator actions reach it, and the timeline says so.
    receiver = await startWebhookReceiver();
    const caseEvents = {
      url: receiver.url,
      secret: `whsec_${randomBytes(32).toString('base64')}`,
      timeoutMs: 5_000,
      sweepIntervalMs: 1_000,
    };
    stack = await startStack({
      temporal: testTemporalConfig(),
      caseFile: testCaseFileOption(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 1222,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 20,
      caseApi,
      caseEvents,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const page of pages) await page.context().close();
    await browser?.close();
    await stack?.stop();
    await receiver?.close();
  });

  /** A browser context of its own (its own cookies), signed in with the operator's key. */
  async function signIn(key: string): Promise<Page> {
    const page = await signInWithKey(browser, stack.caseApi.url, key);
    pages.push(page);
    return page;
  }

  /** A case whose credit report waits for a picklist choice while the applicant completes IDV and connects the bank. */
  async function startCase(applicant: string): Promise<{ caseId: string; personId: string }> {
    const api = caseApiClient(stack.caseApi.url);
    const caseId = (await control('/cases', {})).case_id as string;
    const personId = (await control('/persons', {})).person_id as string;
    const ambiguous = ((await control('/companies')) as Company[]).find(
      (c) => c.company_name === 'Ambiguous Foods Ltd',
    )!;
    const input = {
      caseId,
      company: { company_id: ambiguous.company_id, company_name: 'Ambiguous Foods Ltd' },
      people: [{ personId, name: applicant }],
      steps: { creditReport: true, identityVerification: true, banking: 'open_banking' },
      deadlines: { picklist: '10 minutes', operatorDecision: '1 hour' },
    };
    expect((await api('POST', '/v1/cases', { key: keys.lender, body: input })).status).toBe(201);
    const idv = `identity-verification/${personId}`;
    const read = () => api('GET', `/v1/cases/${caseId}`, { key: keys.lender });
    const waiting = await eventually(read, (r) =>
      Boolean(r.body?.steps?.[idv]?.providerIds?.request_id && r.body.steps.banking?.providerIds?.bank_connection_id),
    );
    await control(`/identity-verifications/${waiting.body.steps[idv].providerIds.request_id}/complete`, {
      verification_status: 'Approved',
    });
    await control(`/open-banking-connections/${waiting.body.steps.banking.providerIds.bank_connection_id}/complete`, {
      status: 'Connected',
      accounts: 2,
    });
    await eventually(
      read,
      (r) =>
        r.body.steps[idv].state === 'completed' &&
        r.body.steps.banking.state === 'completed' &&
        r.body.state === 'needs_attention',
    );
    return { caseId, personId };
  }

  test('an operator finds a case by applicant name, assigns it, waives a step with a reason; the timeline names her, and a colleague sees the assignment live', async () => {
    const suffix = randomBytes(3).toString('hex');
    const applicant = `Ottoline Quarrie ${suffix}`;
    const startedAt = Date.now();
    const [{ caseId, personId }, { caseId: otherCaseId }] = await Promise.all([
      startCase(applicant),
      startCase(`Bartholomew Finch ${suffix}`),
    ]);
    const picklistSeen = Date.now();
    // From here on the pages read the case file only: no query, no visibility list; one describe,
    // the waiver's check that the journey still runs.
    const service = stack.client.workflowService;
    const calls = {
      queries: jest.spyOn(service, 'queryWorkflow'),
      describes: jest.spyOn(service, 'describeWorkflowExecution'),
      lists: jest.spyOn(service, 'listWorkflowExecutions'),
    };

    const ada = await signIn(keys.ada);
    await expect(ada.textContent('#operator')).resolves.toBe('ada');
    const grace = await signIn(keys.grace);

    // Ada searches the queue by part of the applicant's name: that case, not the other.
    await ada.fill('input[name=name]', `quarrie ${suffix}`);
    await ada.click('form[role=search] button');
    await ada.waitForURL(/name=quarrie/);
    const rows = ada.locator('table.queue tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    const row = ada.locator(`tr[data-case="${caseId}"]`);
    await expect(row.textContent()).resolves.toEqual(expect.stringContaining(applicant));
    await expect(row.locator('td.owner').textContent()).resolves.toBe('nobody');

    // Grace has the case open; her page must follow without a reload.
    await grace.goto(`${stack.caseApi.url}/console/cases/${caseId}`);
    await expect(grace.textContent('#owner')).resolves.toBe('nobody');
    await grace.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));

    await row.locator('a').first().click();
    await ada.waitForURL(new RegExp(`/console/cases/${caseId}$`));
    // The IDV step by the person's name; the evidence: the IDV verdict, the accounts and their chart.
    await expect(ada.textContent(`tr[data-step="identity-verification/${personId}"] td >> nth=0`)).resolves.toContain(
      applicant,
    );
    await expect(ada.textContent('#idv-results')).resolves.toContain('Approved');
    await expect(ada.locator('.account svg[role=img]').count()).resolves.toBe(2);
    await expect(ada.locator('.account svg rect.money-in').count()).resolves.toBeGreaterThan(0);

    await ada.click('text=Assign to me');
    await expect(ada.textContent('[role=status]')).resolves.toContain('assigned to ada');
    await expect(ada.textContent('#owner')).resolves.toBe('ada');
    await grace.locator('#owner', { hasText: /^ada$/ }).waitFor({ timeout: 15_000 });
    await expect(grace.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(
      true,
    );

    const before = new Date();
    await ada.fill('tr[data-step="credit-report"] input[name=reason]', 'director confirmed the company by phone');
    await ada.click('tr[data-step="credit-report"] >> text=Waive');
    await expect(ada.textContent('[role=status]')).resolves.toContain('credit-report waived');
    const waived = ada.locator('#timeline li.operator_action', { hasText: 'waived' });
    await expect(waived.locator('.actor').textContent()).resolves.toBe('ada');
    await expect(waived.locator('.reason').textContent()).resolves.toBe('director confirmed the company by phone');
    const at = Date.parse((await waived.locator('time').getAttribute('datetime'))!);
    expect(at).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    await expect(
      ada.locator('#timeline li.operator_action', { hasText: 'assigned the case to ada' }).count(),
    ).resolves.toBe(1);
    await ada.locator('#journey-state', { hasText: /^completed$/ }).waitFor({ timeout: 15_000 });
    // What the lender's system was told is on the timeline: the journey's events, the last one its
    // completion (sent just before the journey closes), and the operator actions the outbox delivered.
    const api = caseApiClient(stack.caseApi.url);
    await eventually(
      () => api('GET', `/v1/cases/${caseId}/timeline`, { key: keys.lender }),
      (r) =>
        r.status === 200 &&
        r.body.entries.some(
          (e: { kind: string; type?: string }) => e.kind === 'notification' && e.type === 'case.completed',
        ) &&
        r.body.entries.some((e: { kind: string }) => e.kind === 'case_event'),
    );
    await ada.reload();
    await expect(ada.locator('#timeline li.notification', { hasText: 'case.completed' }).count()).resolves.toBe(1);
    await expect(
      ada.locator('#timeline li.case_event', { hasText: 'case.operator_action' }).count(),
    ).resolves.toBeGreaterThan(0);
    await ada.screenshot({ path: path.join(shots, 'console-desk-case.png'), fullPage: true });

    // Grace's page followed the waiver too, and names who did it.
    await grace
      .locator('#timeline li.operator_action .reason', { hasText: 'director confirmed the company by phone' })
      .waitFor({ timeout: 15_000 });
    // The queue: Ada owns the case she closed, nobody the other.
    await ada.goto(`${stack.caseApi.url}/console`);
    await expect(ada.locator(`tr[data-case="${caseId}"] td.owner`).textContent()).resolves.toBe('ada (me)');
    // The other case waits on its picklist while its other steps run: its deadline is the
    // picklist's expiry, 10 minutes (its deadlines.picklist) after the wait began.
    const deadlineCell = ada.locator(`tr[data-case="${otherCaseId}"] td.deadline`);
    await expect(deadlineCell.textContent()).resolves.toContain('the picklist expires');
    const deadline = Date.parse((await deadlineCell.locator('time').getAttribute('datetime'))!);
    expect(deadline).toBeGreaterThanOrEqual(startedAt + 10 * 60_000 - 1_000);
    expect(deadline).toBeLessThanOrEqual(picklistSeen + 10 * 60_000 + 1_000);
    await ada.screenshot({ path: path.join(shots, 'console-desk-queue.png'), fullPage: true });
    expect({
      queries: calls.queries.mock.calls.length,
      describes: calls.describes.mock.calls.length,
      lists: calls.lists.mock.calls.length,
    }).toEqual({ queries: 0, describes: 1, lists: 0 });
    jest.restoreAllMocks();
  });

  test('an operator gives a case to a named colleague and later releases it; the case page, the queue and the timeline show who owns it and who did it', async () => {
    const applicant = `Wilhelmina Dunstable ${randomBytes(3).toString('hex')}`;
    const { caseId } = await startCase(applicant);
    const ada = await signIn(keys.ada);
    const grace = await signIn(keys.grace);

    // Grace watches the queue, found by the applicant's name; it must follow without a reload.
    await grace.goto(`${stack.caseApi.url}/console?name=${encodeURIComponent(applicant)}`);
    const gracesRow = grace.locator(`tr[data-case="${caseId}"] td.owner`);
    await expect(gracesRow.textContent()).resolves.toBe('nobody');
    await grace.evaluate(() => ((globalThis as unknown as { notReloaded: boolean }).notReloaded = true));

    await ada.goto(`${stack.caseApi.url}/console/cases/${caseId}`);
    await expect(ada.textContent('#owner')).resolves.toBe('nobody');
    const release = ada.getByRole('button', { name: 'Release', exact: true });
    await expect(release.count()).resolves.toBe(0);
    // The colleagues Ada may give the case to: the other operators, by name.
    const colleague = ada.getByLabel('colleague');
    await expect(colleague.locator('option').allTextContents()).resolves.toEqual(['grace']);

    const assignedFrom = Date.now();
    await colleague.selectOption('grace');
    await ada.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(ada.textContent('[role=status]')).resolves.toContain('assigned to grace');
    await expect(ada.textContent('#owner')).resolves.toBe('grace');
    const assigned = ada.locator('#timeline li.operator_action', { hasText: 'assigned the case to grace' });
    await expect(assigned.locator('.actor').textContent()).resolves.toBe('ada');
    const assignedAt = Date.parse((await assigned.locator('time').getAttribute('datetime'))!);
    expect(assignedAt).toBeGreaterThanOrEqual(assignedFrom - 1000);
    expect(assignedAt).toBeLessThanOrEqual(Date.now());
    await gracesRow.filter({ hasText: 'grace (me)' }).waitFor({ timeout: 15_000 });
    // Ada's queue names Grace as the owner.
    await ada.goto(`${stack.caseApi.url}/console?name=${encodeURIComponent(applicant)}`);
    await expect(ada.locator(`tr[data-case="${caseId}"] td.owner`).textContent()).resolves.toBe('grace');

    // Later Ada takes it back to the queue: nobody owns it, and no Release is offered any more.
    await ada.goto(`${stack.caseApi.url}/console/cases/${caseId}`);
    const releasedFrom = Date.now();
    await release.click();
    await expect(ada.textContent('[role=status]')).resolves.toContain('released');
    await expect(ada.textContent('#owner')).resolves.toBe('nobody');
    await expect(release.count()).resolves.toBe(0);
    const released = ada.locator('#timeline li.operator_action', { hasText: 'released the case' });
    await expect(released.locator('.actor').textContent()).resolves.toBe('ada');
    const releasedAt = Date.parse((await released.locator('time').getAttribute('datetime'))!);
    expect(releasedAt).toBeGreaterThanOrEqual(releasedFrom - 1000);
    expect(releasedAt).toBeLessThanOrEqual(Date.now());
    // The timeline lists the newest first: the release above the assignment, each once.
    await expect(ada.locator('#timeline li.operator_action').allTextContents()).resolves.toEqual([
      expect.stringMatching(/ada released the case$/),
      expect.stringMatching(/ada assigned the case to grace$/),
    ]);
    await gracesRow.filter({ hasText: /^nobody$/ }).waitFor({ timeout: 15_000 });
    await expect(grace.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(
      true,
    );

    await caseApiClient(stack.caseApi.url)('POST', `/v1/cases/${caseId}/cancel`, { key: keys.ada, body: {} });
  });

  test('the live updates need a session, and name what they watch', async () => {
    const anonymous = await fetch(`${stack.caseApi.url}/console/changes?queue=1&since=x`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    const ada = await signIn(keys.ada);
    const unnamed = await ada.request.get(`${stack.caseApi.url}/console/changes?since=x`);
    expect(unnamed.status()).toBe(400);
    // A mark that is not the queue's answers at once with the current one.
    const changed = await ada.request.get(`${stack.caseApi.url}/console/changes?queue=1&since=stale`);
    expect(changed.status()).toBe(200);
    expect(await changed.json()).toEqual({ mark: expect.stringMatching(/^\d+\.\d+$/) });

    // A page whose session ends goes to the sign-in page at the next change instead of asking again.
    await ada.goto(`${stack.caseApi.url}/console`);
    await ada.context().clearCookies();
    const api = caseApiClient(stack.caseApi.url);
    const caseId = (await control('/cases', {})).case_id as string;
    const company = ((await control('/companies')) as Company[])[0]!;
    expect(
      (
        await api('POST', '/v1/cases', {
          key: keys.lender,
          body: { caseId, company: { company_id: company.company_id }, steps: { creditReport: true } },
        })
      ).status,
    ).toBe(201);
    const assigned = await eventually(
      () => api('POST', `/v1/cases/${caseId}/assign`, { key: keys.grace, body: { assignee: 'grace' } }),
      (r) => r.status === 200,
    );
    expect(assigned.body.assignee).toBe('grace');
    await ada.waitForURL(/\/console\/login$/, { timeout: 15_000 });
  });
});
