/**
 * Named operators by OpenID Connect, and the role that may waive, in a real
 * headless Chromium against a real OIDC provider (oidc-provider in a process of its own:
 * test/support/oidcProvider.mjs). The case API runs as `npm run api` does (case-api/main.ts, a
 * process of its own, configured by its environment: CONSOLE_OIDC_* and CASE_API_WAIVE_ROLE),
 * because it loads openid-client, which is ESM-only, with a native import() that jest's CommonJS
 * runtime cannot run; the stack here (in jest) gives it Temporal, the worker and the case file.
 *
 * Grace signs in at the provider's login form; the header names her; she holds no waiver role, so
 * her case page has no waive form and a waiver posted anyway is refused with 403. Ada, who holds
 * it, waives with a reason and the timeline names her. With API keys the same: an operator key
 * without `+waiver` gets 403, one with it waives.
 */
import type { Company } from '../../simulator/store';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generateApiKey, hashApiKey } from '../../case-api/apiKeys';
import { formatPayloadKeys } from '../../codec/payloadKeys';
import { startStack, type Stack } from '../../cli/stack';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient, eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { chromiumPath, launchChromium } from '../../bench/looking/headlessChromium';

const root = path.join(__dirname, '..', '..');
const describeWithChromium = chromiumPath ? describe : describe.skip;

const keys = {
  lender: generateApiKey('origination'),
  desk: generateApiKey('operator'),
  lead: generateApiKey('operator'),
};
const keyEntry = (name: string, roles: string, key: string) => `${name}:${roles}:${hashApiKey(key).toString('hex')}`;

/** A child process whose output is kept (never printed: CI fails on stray output) and read line by line. */
function startProcess(args: string[], env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return {
    async line(match: (line: string) => boolean, timeoutMs = 60_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(match);
        if (found) return found;
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(
            `${args.join(' ')}: no expected line (exit ${child.exitCode}): ${lines.slice(-5).join(' | ')} ${stderr.slice(-1500)}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describeWithChromium('console sign-in with OpenID Connect, and who may waive', () => {
  let stack: Stack;
  let browser: Browser;
  let provider: ReturnType<typeof startProcess>;
  let api: ReturnType<typeof startProcess>;
  let apiUrl: string;
  let issuer: string;
  const contexts: BrowserContext[] = [];
  const control = (p: string, body?: unknown) => simulatorControl(stack.simulator)(p, body);

  beforeAll(async () => {
    stack = await startStack({
      temporal: testTemporalConfig(),
      caseFile: testCaseFileOption(),
      workflowBundle: testWorkflowBundle(),
      simulatorSeed: 1422,
      spoolDir: testDirectory('spool'),
      processingDelayMs: 20,
    });
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const client = {
      client_id: 'journeys-console',
      client_secret: randomBytes(24).toString('base64url'),
      redirect_uri: `${apiUrl}/console/oidc/callback`,
    };
    provider = startProcess([path.join(root, 'test/support/oidcProvider.mjs')], {
      OIDC_TEST_CLIENT: JSON.stringify(client),
      OIDC_TEST_ACCOUNTS: JSON.stringify({
        ada: { name: 'Ada Lovelace', roles: ['operator', 'waiver'] },
        grace: { name: 'Grace Hopper', roles: ['operator'] },
      }),
    });
    ({ issuer } = JSON.parse(await provider.line((l) => l.startsWith('{"issuer"'))) as { issuer: string });
    api = startProcess(['--import', 'tsx', path.join(root, 'case-api/main.ts')], {
      TEMPORAL_ADDRESS: stack.temporal.address,
      TEMPORAL_NAMESPACE: stack.temporal.namespace,
      TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
      PAYLOAD_ENCRYPTION_KEYS: formatPayloadKeys(stack.payloadKeys),
      DATABASE_URL: stack.caseFileUrl,
      CASE_API_PORT: String(port),
      CASE_API_KEYS: [
        keyEntry('lender', 'origination', keys.lender),
        keyEntry('desk', 'operator', keys.desk),
        keyEntry('lead', 'operator+waiver', keys.lead),
      ].join(','),
      CASE_API_SESSION_SECRET: randomBytes(32).toString('base64url'),
      CASE_API_WAIVE_ROLE: 'waiver',
      CONSOLE_OIDC_ISSUER: issuer,
      CONSOLE_OIDC_CLIENT_ID: client.client_id,
      CONSOLE_OIDC_CLIENT_SECRET: client.client_secret,
      CONSOLE_OIDC_REDIRECT_URL: client.redirect_uri,
    });
    await api.line((l) => l.includes('case api listening'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await api?.stop();
    await provider?.stop();
    await stack?.stop();
  });

  /** A browser context of its own, signed in at the identity provider's login form. */
  async function signIn(login: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    // The provider's development pages load a web font; nothing here leaves the machine.
    await page.route(/^https:\/\//, (route) => route.abort());
    await page.goto(`${apiUrl}/console`);
    await page.waitForURL(/\/console\/login$/);
    await page.click('#oidc-sign-in');
    await page.fill('input[name=login]', login);
    await page.fill('input[name=password]', 'any');
    await page.click('button[type=submit]');
    await page.click('button:has-text("Continue")');
    await page.waitForURL(/\/console$/);
    return page;
  }

  /** A case whose credit report waits for a picklist choice: a step an operator can waive. */
  async function startCase(): Promise<string> {
    const call = caseApiClient(apiUrl);
    const caseId = (await control('/cases', {})).case_id as string;
    const ambiguous = ((await control('/companies')) as Company[]).find(
      (c) => c.company_name === 'Ambiguous Foods Ltd',
    )!;
    const input = {
      caseId,
      company: { company_id: ambiguous.company_id, company_name: 'Ambiguous Foods Ltd' },
      steps: { creditReport: true },
      deadlines: { picklist: '10 minutes', operatorDecision: '1 hour' },
    };
    expect((await call('POST', '/v1/cases', { key: keys.lender, body: input })).status).toBe(201);
    await eventually(
      () => call('GET', `/v1/cases/${caseId}`, { key: keys.lender }),
      (r) => r.body?.steps?.['credit-report']?.state === 'waiting',
    );
    return caseId;
  }

  test('operators sign in at the identity provider by name; only the waiver role may waive, in the console and by API key', async () => {
    const [consoleCase, apiCase] = await Promise.all([startCase(), startCase()]);

    // The key form is gone: the console signs in at the issuer only.
    const keyLogin = await fetch(`${apiUrl}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${keys.lead}`,
      redirect: 'manual',
    });
    expect(keyLogin.status).toBe(403);

    const grace = await signIn('grace');
    await expect(grace.textContent('#operator')).resolves.toBe('Grace Hopper');
    await grace.goto(`${apiUrl}/console/cases/${consoleCase}`);
    await expect(grace.locator('tr[data-step="credit-report"] td').nth(1).textContent()).resolves.toBe('waiting');
    await expect(grace.locator('tr[data-step="credit-report"] form[action$="/waive"]').count()).resolves.toBe(0);
    // A waiver posted anyway, with her session and its CSRF token, is refused.
    const csrf = (await grace.locator('input[name=csrf]').first().getAttribute('value'))!;
    const refused = await grace.evaluate(
      async ([caseId, csrf]) => {
        const body = new URLSearchParams({ csrf, step: 'credit-report', reason: 'posted without the role' });
        const answer = await fetch(`/console/cases/${caseId}/waive`, { method: 'POST', body, redirect: 'manual' });
        return { status: answer.status, text: await answer.text() };
      },
      [consoleCase, csrf] as const,
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('needs the waiver role');

    const ada = await signIn('ada');
    await expect(ada.textContent('#operator')).resolves.toBe('Ada Lovelace');
    await ada.goto(`${apiUrl}/console/cases/${consoleCase}`);
    const before = Date.now();
    await ada.fill('tr[data-step="credit-report"] input[name=reason]', 'director confirmed the company by phone');
    await ada.click('tr[data-step="credit-report"] >> text=Waive');
    await expect(ada.textContent('[role=status]')).resolves.toContain('credit-report waived');
    const waived = ada.locator('#timeline li.operator_action', { hasText: 'waived' });
    await expect(waived.locator('.actor').textContent()).resolves.toBe('Ada Lovelace');
    await expect(waived.locator('.reason').textContent()).resolves.toBe('director confirmed the company by phone');
    expect(Date.parse((await waived.locator('time').getAttribute('datetime'))!)).toBeGreaterThanOrEqual(before - 1000);
    // Grace's refused attempt never reached the journey: the audit holds Ada's waiver alone.
    await expect(ada.locator('#timeline li.operator_action').count()).resolves.toBe(1);
    // The audit names her by issuer and subject, which the identity provider never changes and no
    // other operator shares; her display name is only shown.
    const audited = await caseApiClient(apiUrl)('GET', `/v1/cases/${consoleCase}/timeline`, { key: keys.lead });
    expect(audited.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action')).toMatchObject([
      { actor: `${issuer}#ada`, action: 'waiveStep', outcome: 'accepted' },
    ]);
    await ada.click('button:has-text("Assign to me")');
    await expect(ada.textContent('#owner')).resolves.toBe('Ada Lovelace');
    const assigned = await caseApiClient(apiUrl)('GET', `/v1/cases/${consoleCase}`, { key: keys.lead });
    expect(assigned.body.assignee).toBe(`${issuer}#ada`);

    // API keys: an operator key without the role is refused; one with `+waiver` waives.
    const call = caseApiClient(apiUrl);
    const waive = (key: string) =>
      call('POST', `/v1/cases/${apiCase}/steps/credit-report/waive`, { key, body: { reason: 'confirmed by phone' } });
    const denied = await waive(keys.desk);
    expect(denied).toMatchObject({
      status: 403,
      body: { error: 'forbidden', message: 'waiveStep needs the waiver role; this key has no further role' },
    });
    const accepted = await waive(keys.lead);
    expect(accepted.status).toBe(200);
    const timeline = await call('GET', `/v1/cases/${apiCase}/timeline`, { key: keys.lead });
    expect(timeline.body.entries.filter((e: { kind: string }) => e.kind === 'operator_action')).toMatchObject([
      { actor: 'lead', action: 'waiveStep', outcome: 'accepted' },
    ]);
  });
});
