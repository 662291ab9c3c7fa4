/** The API client against the simulator over real HTTP. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { createBankingActivities } from '../../activities/bankingActivities';
import { createCreditReportActivities } from '../../activities/creditReportActivities';
import { createDocumentActivities } from '../../activities/documentActivities';
import { createInsightActivities } from '../../activities/insightActivities';
import { connectedAccount } from '../../simulator/accountGenerator';
import { createIdentityVerificationActivities } from '../../activities/identityVerificationActivities';
import { ProviderClient } from '../../activities/providerClient';
import { routes } from '../../activities/routes';
import { webhookManagement } from '../../activities/webhookManagement';
import { identityVerificationResultSchema } from '../../provider';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import type { CaseFileStore } from '../../case-file/store';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFile } from '../setup/testEnvironment';
import { storedDocument } from '../support/storedDocument';

let sim: RunningSimulator;
let caseFile: CaseFileStore;

beforeAll(async () => {
  caseFile = await testCaseFile();
});

afterAll(async () => {
  await caseFile?.close();
});

async function simulator(tokenLifetimeSeconds = 3600, now?: () => number): Promise<RunningSimulator> {
  sim = await startSimulator({
    port: 0,
    clientId: 'client',
    clientSecret: 'primary',
    seed: 11,
    tokenLifetimeSeconds,
    allowInsecureLoopbackCallbacks: false,
    processingDelayMs: 0,
    now,
  });
  return sim;
}

afterEach(async () => {
  await sim?.stop();
});

function clientFor(s: RunningSimulator, clientSecrets = ['primary'], now?: () => number): ProviderClient {
  return new ProviderClient(
    { baseUrl: s.baseUrl, authUrl: s.authUrl, clientId: 'client', clientSecrets, requestTimeoutMs: 5_000 },
    fetch,
    now,
  );
}

const control = (path: string, body: unknown) => simulatorControl(sim)(path, body);

const firstPerson = () => [...sim.store.persons.values()][0]!.person_id;
const companyNamed = (name: string) => [...sim.store.companies.values()].find((c) => c.company_name === name)!;
const callsTo = (path: string) => sim.store.requests.filter((r) => r.path === path).map((r) => r.status);

async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApplicationFailure);
    return error as ApplicationFailure;
  }
  throw new Error('expected the call to fail');
}

describe('OAuth token handling', () => {
  test('50 concurrent calls cause one token request', async () => {
    const client = clientFor(await simulator());
    const idv = createIdentityVerificationActivities(client, caseFile);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => idv.listIdentityVerificationRequests({ personId: firstPerson() })),
    );
    expect(results).toHaveLength(50);
    expect(sim.store.stats.tokenRequests).toBe(1);
    expect(client.tokens.tokenRequests).toBe(1);
  });

  test('a token is replaced when its lifetime runs out, before the API refuses it', async () => {
    // One clock for the simulator and the client, moved on by the test instead of waited out.
    let now = Date.now();
    const clock = () => now;
    const client = clientFor(await simulator(1, clock), ['primary'], clock);
    const idv = createIdentityVerificationActivities(client, caseFile);
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    now += 500;
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(sim.store.stats.tokenRequests).toBe(1);
    now += 500;
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(sim.store.stats.tokenRequests).toBe(2);
    expect(sim.store.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  test('a 401 leads to one refresh and one retry', async () => {
    const client = clientFor(await simulator());
    const idv = createIdentityVerificationActivities(client, caseFile);
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    await control('/tokens/revoke', {});
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(callsTo(`/v2/persons/${firstPerson()}/identity-verifications`)).toEqual([200, 401, 200]);
    expect(sim.store.stats.tokenRequests).toBe(2);
  });

  test('a 401 that persists fails after one refresh and one retry, not more', async () => {
    const client = clientFor(await simulator());
    await control('/faults', {
      method: 'GET',
      path: routes.identityVerificationResult.pattern,
      status: 401,
      times: 10,
    });
    const failure = await failureOf(
      client.call({
        route: routes.identityVerificationResult,
        params: { requestId: 'r1' },
        schema: identityVerificationResultSchema,
      }),
    );
    expect(failure).toMatchObject({ type: 'HTTP_401', nonRetryable: true });
    expect(callsTo('/v2/identity/r1')).toEqual([401, 401]);
    expect(sim.store.stats.tokenRequests).toBe(2);
  });

  test('the secondary client secret is used when the primary is revoked', async () => {
    const client = clientFor(await simulator(), ['primary', 'secondary']);
    const idv = createIdentityVerificationActivities(client, caseFile);
    await control('/client-secrets', { secret: 'secondary' });
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(sim.store.stats.tokensIssued).toBe(1);

    await control('/client-secrets/revoke', { secret: 'primary' });
    await control('/tokens/revoke', {});
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(sim.store.stats).toMatchObject({ tokenRequests: 3, tokensIssued: 2 });

    // The secret that worked is tried first from now on.
    await control('/tokens/revoke', {});
    await idv.listIdentityVerificationRequests({ personId: firstPerson() });
    expect(sim.store.stats).toMatchObject({ tokenRequests: 4, tokensIssued: 3 });
  });

  test('refused credentials are retried (a rotation mistake must not fail every journey) and raise an alert, naming the client but not the secret', async () => {
    const client = clientFor(await simulator(), ['wrong-secret']);
    const alerts = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const failure = await failureOf(
        createIdentityVerificationActivities(client, caseFile).listIdentityVerificationRequests({
          personId: firstPerson(),
        }),
      );
      expect(failure).toMatchObject({ type: 'ProviderAuthenticationFailed', nonRetryable: false });
      expect(failure.message).toContain('client');
      expect(JSON.stringify(failure)).not.toContain('wrong-secret');
      expect(alerts).toHaveBeenCalledTimes(1);
      expect(String(alerts.mock.calls[0]?.[0])).toContain('provider_token_refused');
      expect(String(alerts.mock.calls[0]?.[0])).not.toContain('wrong-secret');
    } finally {
      alerts.mockRestore();
    }
  });
});

describe('error classification', () => {
  test('a 422 fails non-retryably with its type and the provider error body', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const failure = await failureOf(
      credit.requestCreditReport({ company_id: companyNamed('Nonumber Trading Ltd').company_id }),
    );
    expect(failure).toMatchObject({ type: 'HTTP_422', nonRetryable: true });
    expect(failure.details?.[0]).toMatchObject({
      status: 422,
      body: { error: 'unprocessable', message: expect.stringContaining('company_number') },
    });
  });

  test('a 429 or 5xx is retryable, carrying Retry-After as the next retry delay', async () => {
    const client = clientFor(await simulator());
    await control('/faults', {
      method: 'GET',
      path: routes.identityVerificationResult.pattern,
      status: 429,
      retry_after: '3',
      times: 1,
    });
    await control('/faults', { method: 'GET', path: routes.identityVerificationResult.pattern, status: 503, times: 1 });
    const call = () =>
      client.call({
        route: routes.identityVerificationResult,
        params: { requestId: 'r1' },
        schema: identityVerificationResultSchema,
      });
    expect(await failureOf(call())).toMatchObject({ type: 'HTTP_429', nonRetryable: false, nextRetryDelay: 3000 });
    expect(await failureOf(call())).toMatchObject({ type: 'HTTP_503', nonRetryable: false });
  });

  test('a link to another host is refused without sending the token', async () => {
    const client = clientFor(await simulator());
    let received = 0;
    const other = http.createServer((_req, res) => {
      received++;
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const { port } = other.address() as AddressInfo;
      const failure = await failureOf(
        client.follow({ link: `http://127.0.0.1:${port}/v2/identity/r1`, schema: identityVerificationResultSchema }),
      );
      expect(failure).toMatchObject({ type: 'LinkOutsideBaseUrl', nonRetryable: true });
      expect(received).toBe(0);
      expect(sim.store.stats.tokenRequests).toBe(0);
    } finally {
      other.close();
    }
  });
});

describe('credit reports (spec 4.2, 4.3)', () => {
  test('rule 1: only company_id uses the stored details', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const acme = companyNamed('Acme Widgets Ltd');
    expect(await credit.requestCreditReport({ company_id: acme.company_id })).toMatchObject({
      company_id: acme.company_id,
      status: 'Complete',
      report: { company_number: '01234567', country_code: 'GB' },
    });
    await expect(
      credit.requestCreditReport({ company_id: companyNamed('Nocountry Services Ltd').company_id }),
    ).rejects.toMatchObject({ type: 'HTTP_422' });
  });

  test('rule 2: sent details override the stored ones; the report stays with company_id', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const nonumber = companyNamed('Nonumber Trading Ltd');
    const report = await credit.requestCreditReport({
      company_id: nonumber.company_id,
      company_number: '01234567',
      company_name: 'Acme Widgets Ltd',
      country_code: 'GB',
    });
    expect(report).toMatchObject({
      company_id: nonumber.company_id,
      status: 'Complete',
      report: { company_name: 'Acme Widgets Ltd' },
    });
  });

  test('rule 3: provider_id identifies the company; rule 4: TooManyResults and its picklist', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const ambiguous = companyNamed('Ambiguous Foods Ltd');
    const report = await credit.requestCreditReport({ company_id: ambiguous.company_id });
    expect(report).toMatchObject({ status: 'TooManyResults', report: null });
    expect(report.picklist).toHaveLength(3);

    const chosen = report.picklist![1]!;
    await expect(
      credit.resolveCreditReportPicklist({ report_id: report.report_id, provider_id: 'not-on-the-list' }),
    ).rejects.toMatchObject({ type: 'HTTP_422' });
    const resolved = await credit.resolveCreditReportPicklist({
      report_id: report.report_id,
      provider_id: chosen.provider_id,
    });
    expect(resolved).toMatchObject({
      company_id: ambiguous.company_id,
      status: 'Complete',
      report: { provider_id: chosen.provider_id },
    });

    const byProvider = await credit.requestCreditReport({
      company_id: ambiguous.company_id,
      provider_id: chosen.provider_id,
    });
    expect(byProvider).toMatchObject({
      company_id: ambiguous.company_id,
      status: 'Complete',
      report: { provider_id: chosen.provider_id },
    });
  });
});

describe('documents, banking and insights', () => {
  const caseId = () => [...sim.store.cases.values()][0]!.case_id;
  const base = () => sim.baseUrl;

  test('a document is uploaded, processed and read back through its link', async () => {
    const client = clientFor(await simulator());
    const documents = createDocumentActivities(client, caseFile);
    const stored = await storedDocument(caseFile, caseId(), 'march.pdf', 'PAYSLIP March');
    const uploaded = await documents.uploadDocument({ entity_type: 'case', entity_id: caseId(), ...stored });
    expect(uploaded).toMatchObject({ status: 'Processing', file_name: 'march.pdf' });
    await sim.settled();
    const read = await documents.getDocument({ link: `${base()}/v2/documents/${uploaded.document_id}` });
    expect(read).toMatchObject({
      document_id: uploaded.document_id,
      status: 'Complete',
      document_type: 'Payslip',
      message: null,
    });
  });

  test('a connected account is read in full into the case file, and summarised', async () => {
    const client = clientFor(await simulator());
    const banking = createBankingActivities(client, caseFile);
    const connection = await banking.createOpenBankingConnection({ caseId: caseId() });
    expect(connection.status).toBe('Pending');
    await control(`/open-banking-connections/${connection.bank_connection_id}/complete`, {
      status: 'Connected',
      accounts: 2,
    });
    const [account] = [...sim.store.accounts.values()];
    const summary = await banking.readConnectedAccount({ ...connectedAccount(base(), account!), caseId: caseId() });
    const { transactions } = account!.transactions;
    expect(summary).toMatchObject({
      account_connection_id: account!.account.account_connection_id,
      bank_name: account!.account.bank_name,
      account_number_masked: account!.account.account_number_masked,
      balance: { amount: account!.balances.balances[0]!.amount, currency: 'GBP' },
      transactions: transactions.length,
      first_booking_date: transactions.map((t) => t.booking_date).sort()[0],
      case_file: { case_id: caseId(), attempt_id: 'direct', record: 'bank_account' },
    });
    const stored = (await caseFile.evidence(caseId())).bankAccounts.find(
      (a) => a.account_connection_id === account!.account.account_connection_id,
    );
    expect(stored?.transactions.map((t) => t.transaction_id).sort()).toEqual(
      transactions.map((t) => t.transaction_id).sort(),
    );
  });

  test('affordability and income-and-employer are requested, then read when complete', async () => {
    const client = clientFor(await simulator());
    const insights = createInsightActivities(client, caseFile);
    const affordability = await insights.requestAffordabilityInsight({ caseId: caseId() });
    const incomeEmployer = await insights.requestIncomeEmployerVerification({ caseId: caseId() });
    await sim.settled();
    expect(
      await insights.getAffordabilityInsight({ link: `/v2/affordability-insights/${affordability.request_id}` }),
    ).toMatchObject({ status: 'Complete' });
    expect(
      await insights.getAffordabilityInsightTransactions({
        link: `/v2/affordability-insights/${affordability.request_id}/transactions`,
      }),
    ).toMatchObject({ request_id: affordability.request_id });
    expect(
      await insights.getIncomeEmployerResult({ link: `/v2/income-employer/${incomeEmployer.request_id}` }),
    ).toMatchObject({ status: 'Complete', employer_name: expect.any(String) });
  });
});

describe('webhook management', () => {
  test('create, event types, and the secret lifecycle', async () => {
    const management = webhookManagement(clientFor(await simulator()));
    const webhook = await management.createWebhook({
      webhook_name: 'w',
      webhook_callback_url: 'https://hooks.example.com/x',
      event_types: ['IdentityVerification.Completed'],
    });
    expect(webhook).toMatchObject({ webhook_name: 'w', external_ref: null });
    expect(await management.updateWebhook(webhook.webhook_id, { external_ref: 'case-system' })).toMatchObject({
      external_ref: 'case-system',
    });
    expect((await management.eventTypes()).map((g) => g.event_group_name)).toEqual([
      'Document Lifecycle',
      'Banking',
      'Identity Verification',
      'Insights',
    ]);
    const created = await management.createSecret();
    expect(await management.readSecret()).toEqual(created);
    const rotated = await management.rotateSecret();
    expect(rotated.secret).not.toBe(created.secret);
    await management.deleteSecret();
    await expect(management.readSecret()).rejects.toMatchObject({ type: 'HTTP_404' });
  });

  test('an http:// callback or a 51-character name is refused before it is sent', async () => {
    const management = webhookManagement(clientFor(await simulator()));
    await expect(
      management.createWebhook({
        webhook_name: 'w',
        webhook_callback_url: 'http://hooks.example.com/x',
        event_types: ['x'],
      }),
    ).rejects.toThrow(/webhook_callback_url/);
    await expect(
      management.createWebhook({
        webhook_name: 'n'.repeat(51),
        webhook_callback_url: 'https://hooks.example.com/x',
        event_types: ['x'],
      }),
    ).rejects.toThrow(/webhook_name/);
    expect(sim.store.requests).toHaveLength(0);
  });
});

describe('activity input', () => {
  test('a bad input fails non-retryably, naming the field', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const failure = await failureOf(credit.requestCreditReport({ company_id: '' }));
    expect(failure).toMatchObject({
      type: 'InvalidActivityInput',
      nonRetryable: true,
      message: expect.stringContaining('company_id'),
    });
    expect(sim.store.requests).toHaveLength(0);
  });
});

describe('side effects once', () => {
  test('a picklist already resolved (an earlier answer lost) is read, not resolved again', async () => {
    const credit = createCreditReportActivities(clientFor(await simulator()), caseFile);
    const report = await credit.requestCreditReport({ company_id: companyNamed('Ambiguous Foods Ltd').company_id });
    const choice = { report_id: report.report_id, provider_id: report.picklist![1]!.provider_id };
    const first = await credit.resolveCreditReportPicklist(choice);
    const again = await credit.resolveCreditReportPicklist(choice);
    expect(again).toEqual(first);
    expect(callsTo('/v2/company-credit-reports/picklist')).toEqual([200]);
  });

  test('a 409 on the picklist is answered by reading the report the provider shows resolved', async () => {
    const s = await simulator();
    const plain = createCreditReportActivities(clientFor(s), caseFile);
    const report = await plain.requestCreditReport({ company_id: companyNamed('Ambiguous Foods Ltd').company_id });
    const choice = { report_id: report.report_id, provider_id: report.picklist![0]!.provider_id };
    // Someone else resolves the report between our read and our call: the provider answers 409.
    const racing: typeof fetch = async (url, init) => {
      if (init?.method === 'POST' && String(url).endsWith('/picklist'))
        await plain.resolveCreditReportPicklist({ ...choice, provider_id: report.picklist![2]!.provider_id });
      return fetch(url, init);
    };
    const credit = createCreditReportActivities(
      new ProviderClient(
        {
          baseUrl: s.baseUrl,
          authUrl: s.authUrl,
          clientId: 'client',
          clientSecrets: ['primary'],
          requestTimeoutMs: 5_000,
        },
        racing,
      ),
      caseFile,
    );
    const resolved = await credit.resolveCreditReportPicklist(choice);
    expect(resolved).toMatchObject({ status: 'Complete', report: { provider_id: report.picklist![2]!.provider_id } });
    expect(callsTo('/v2/company-credit-reports/picklist')).toEqual([200, 409]);
  });

  test('a creating call sends an Idempotency-Key only inside an activity; outside one it sends none', async () => {
    const idv = createIdentityVerificationActivities(clientFor(await simulator()), caseFile);
    await idv.createIdentityVerificationRequest({ personId: firstPerson() });
    await idv.createIdentityVerificationRequest({ personId: firstPerson() });
    // Without an activity there is no workflow run to scope a key to: two calls, two requests.
    expect([...sim.store.identityVerifications.values()].filter((r) => r.person_id === firstPerson())).toHaveLength(2);
  });
});
