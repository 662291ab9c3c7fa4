/**
 * Conformance of the simulator to the numbered rules of spec §4.2, §5, §6.1, §6.3, §6.6 and §8,
 * over HTTP, with raw requests and a capturing webhook receiver (not the project's own client or
 * bridge). Signatures are computed here with node:crypto.
 */
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import { CONFORMANCE_SECRET as SECRET, useConformanceSimulator } from '../support/conformanceSimulator';
import { control, fetchToken, rawApi, type Json } from '../support/faultHarness/rawProviderApi';
import type { Case, Company, DeliveryLogEntry } from '../../simulator/store';
import type { ReceivedDelivery, WebhookReceiver } from '../support/webhookReceiver';

let sim: RunningSimulator;
let receiver: WebhookReceiver;
let api: ReturnType<typeof rawApi>;
const boot = useConformanceSimulator((current) => ({ sim, receiver, api } = current));

const hmac = (raw: string, secret: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(raw, 'utf8')).digest('base64');
const companies = async () => (await control(sim, 'GET', '/companies')).body as Company[];
const company = async (name: string) => (await companies()).find((c) => c.company_name === name)!;
const cases = async () => (await control(sim, 'GET', '/cases')).body as Case[];
const settle = () => control(sim, 'POST', '/settle', {});

async function subscribe(eventTypes: string[], extra: Record<string, unknown> = {}): Promise<Json> {
  const created = await api('POST', '/webhooks', {
    webhook_name: 'conformance',
    webhook_callback_url: receiver.url,
    event_types: eventTypes,
    ...extra,
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function upload(caseId: string, fileName: string, text: string, documentType?: string): Promise<Json> {
  const response = await api('POST', '/v2/documents', {
    entity_type: 'case',
    entity_id: caseId,
    file_name: fileName,
    content_base64: Buffer.from(text).toString('base64'),
    document_type: documentType || undefined,
  });
  expect(response.status).toBe(202);
  return response.body;
}

async function pendingIdv(): Promise<string> {
  const person = (await control(sim, 'GET', '/persons')).body[0];
  return (await api('POST', `/v2/persons/${person.person_id}/identity-verifications`, {})).body.request_id;
}

const byType = (type: string) => receiver.received.filter((d) => d.body?.event_type === type);

describe('§4.2 credit reports', () => {
  test('rule 1: only company_id uses the stored details, and 422 when they are incomplete', async () => {
    const acme = await company('Acme Widgets Ltd');
    expect((await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id })).body).toMatchObject({
      company_id: acme.company_id,
      report: { company_number: '01234567', country_code: 'GB' },
    });
    for (const name of ['Nonumber Trading Ltd', 'Nocountry Services Ltd']) {
      expect(
        (await api('POST', '/v2/company-credit-reports', { company_id: (await company(name)).company_id })).status,
      ).toBe(422);
    }
  });

  test('rule 2: sent number, name and country override the stored ones; the report keeps company_id', async () => {
    const nonumber = await company('Nonumber Trading Ltd');
    const response = await api('POST', '/v2/company-credit-reports', {
      company_id: nonumber.company_id,
      company_number: '01234567',
      company_name: 'Acme Widgets Ltd',
      country_code: 'GB',
    });
    expect(response.body).toMatchObject({
      company_id: nonumber.company_id,
      status: 'Complete',
      report: { company_number: '01234567' },
    });
  });

  test('rule 2: the sent company_name is used with number and country; a name matching none of them is 404', async () => {
    const ambiguous = await company('Ambiguous Foods Ltd');
    const request = { company_id: ambiguous.company_id, company_number: '05555555', country_code: 'GB' };
    const named = await api('POST', '/v2/company-credit-reports', {
      ...request,
      company_name: 'ambiguous foods ltd  (holdings)',
    });
    expect(named.body).toMatchObject({
      company_id: ambiguous.company_id,
      status: 'Complete',
      report: { company_name: 'Ambiguous Foods Ltd (Holdings)' },
    });
    expect(
      (await api('POST', '/v2/company-credit-reports', { ...request, company_name: 'Someone Else Ltd' })).status,
    ).toBe(404);
  });

  test('company_id with only company_name is not rule 1: no 422, the name identifies the company', async () => {
    for (const name of ['Nonumber Trading Ltd', 'Nocountry Services Ltd']) {
      const entity = await company(name);
      const response = await api('POST', '/v2/company-credit-reports', {
        company_id: entity.company_id,
        company_name: name,
      });
      expect({ name, status: response.status, report: response.body.report?.company_name }).toEqual({
        name,
        status: 201,
        report: name,
      });
    }
    const ambiguous = await company('Ambiguous Foods Ltd');
    // With the stored number and country known, they identify the company as in rule 1.
    const partial = await api('POST', '/v2/company-credit-reports', {
      company_id: ambiguous.company_id,
      company_name: 'Ambiguous Foods Ltd (Trading)',
      country_code: 'GB',
    });
    expect(partial.body.status).toBe('TooManyResults');
  });

  test('rule 3: provider_id identifies the company; the report keeps company_id', async () => {
    const acme = await company('Acme Widgets Ltd');
    const first = (await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id })).body;
    const other = await company('Nonumber Trading Ltd');
    const response = await api('POST', '/v2/company-credit-reports', {
      company_id: other.company_id,
      provider_id: first.report.provider_id,
    });
    expect(response.body).toMatchObject({
      company_id: other.company_id,
      report: { provider_id: first.report.provider_id },
    });
  });

  test('rule 4: TooManyResults with a picklist, resolved with POST /v2/company-credit-reports/picklist', async () => {
    const ambiguous = await company('Ambiguous Foods Ltd');
    const report = (await api('POST', '/v2/company-credit-reports', { company_id: ambiguous.company_id })).body;
    expect(report.status).toBe('TooManyResults');
    expect(report.picklist.length).toBeGreaterThan(1);
    const resolved = await api('POST', '/v2/company-credit-reports/picklist', {
      report_id: report.report_id,
      provider_id: report.picklist[2].provider_id,
    });
    expect(resolved.body).toMatchObject({
      company_id: ambiguous.company_id,
      status: 'Complete',
      report: { provider_id: report.picklist[2].provider_id },
    });
  });
});

describe('§5 authentication', () => {
  test('rule 1: a request without a valid access token gets the Invalid authorization response', async () => {
    for (const authorization of [
      undefined,
      'Bearer forged',
      `Basic ${Buffer.from(`conformance:${SECRET}`).toString('base64')}`,
    ]) {
      const response = await fetch(`${sim.baseUrl}/v2/identity/x`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ message: 'Invalid authorization' });
    }
  });

  test('rule 7: the Bearer scheme is matched case-insensitively (RFC 9110 §11.1)', async () => {
    const token = (await fetchToken(sim, SECRET)).body.access_token;
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const response = await fetch(`${sim.baseUrl}/webhooks/event-types`, {
        headers: { authorization: `${scheme} ${token}` },
      });
      expect({ scheme, status: response.status }).toEqual({ scheme, status: 200 });
    }
  });

  test('rule 4: each environment has its own application; credentials and tokens do not cross', async () => {
    const other = await startSimulator({
      port: 0,
      clientId: 'other-env',
      clientSecret: 'other-secret',
      seed: 9,
      tokenLifetimeSeconds: 3600,
      allowInsecureLoopbackCallbacks: false,
    });
    try {
      const token = (await fetchToken(sim, SECRET)).body.access_token;
      expect(
        (await fetch(`${other.baseUrl}/v2/identity/x`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(401);
      expect((await fetchToken(other, SECRET, { client_id: 'conformance' })).status).toBe(401);
    } finally {
      await other.stop();
    }
  });

  test('rule 5: two secrets at once, not three; an expired secret is refused', async () => {
    expect((await control(sim, 'POST', '/client-secrets', { secret: 'second' })).status).toBe(201);
    expect((await control(sim, 'POST', '/client-secrets', { secret: 'third' })).status).toBe(409);
    expect((await fetchToken(sim, 'second')).status).toBe(200);
    await control(sim, 'POST', '/client-secrets/revoke', { secret: 'second' });
    expect((await fetchToken(sim, 'second')).status).toBe(401);
    await control(sim, 'POST', '/client-secrets', { secret: 'expired', expires_at: '2020-01-01T00:00:00Z' });
    expect((await fetchToken(sim, 'expired')).status).toBe(401);
  });

  test('rule 6: the scope is the API address followed by /.default', async () => {
    expect((await fetchToken(sim, SECRET, { scope: 'https://elsewhere.example/.default' })).status).toBe(400);
    expect((await fetchToken(sim, SECRET, { grant_type: 'password' })).status).toBe(400);
  });

  test('rule 8 and §8: a token is valid for one hour, then refused', async () => {
    expect((await fetchToken(sim, SECRET)).body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    await sim.stop();
    // The simulator's clock, moved on by the test: the lifetime is under test, not the wall clock.
    let now = Date.now();
    await boot({ tokenLifetimeSeconds: 1, now: () => now });
    const token = (await fetchToken(sim, SECRET)).body.access_token;
    const call = () => fetch(`${sim.baseUrl}/webhooks/event-types`, { headers: { authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);
    now += 999;
    expect((await call()).status).toBe(200);
    now += 1;
    expect((await call()).status).toBe(401);
  });

  test('rule 10: deliveries carry no access token', async () => {
    await subscribe(['IdentityVerification.Completed']);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    expect(receiver.received[0]!.headers.authorization).toBeUndefined();
  });
});

describe('§6.1 delivery rules', () => {
  test('rules 1 and 2: a POST with a JSON body; any 2xx is a success, anything else a failure never retried', async () => {
    await subscribe(['IdentityVerification.Completed']);
    receiver.respondWith(204);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    receiver.respondWith(500);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Declined',
    });
    await settle();
    expect(receiver.received.map((d) => [d.method, d.headers['content-type']])).toEqual([
      ['POST', 'application/json'],
      ['POST', 'application/json'],
    ]);
    expect((await control(sim, 'GET', '/deliveries')).body.map((d: DeliveryLogEntry) => [d.status, d.outcome])).toEqual(
      [
        [204, 'delivered'],
        [500, 'failed'],
      ],
    );
  });

  test('rule 3: each webhook of an event type gets one request with the same payload and batch id', async () => {
    const first = await subscribe(['IdentityVerification.Completed'], { external_ref: 'crm-1' });
    const second = await subscribe(['IdentityVerification.Completed']);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received as [ReceivedDelivery, ReceivedDelivery];
    expect(a.headers['x-batch-correlation-id']).toBe(b.headers['x-batch-correlation-id']);
    expect(a.body.data).toEqual(b.body.data);
    expect(new Set([a.body.webhook_id, b.body.webhook_id])).toEqual(new Set([first.webhook_id, second.webhook_id]));
    expect(receiver.received.find((d) => d.body.webhook_id === first.webhook_id)!.body.external_ref).toBe('crm-1');
    expect(receiver.received.find((d) => d.body.webhook_id === second.webhook_id)!.body.external_ref).toBeNull();
  });

  test('rule 4: a subscribed parent and child give two deliveries for one payslip', async () => {
    await subscribe(['DocumentProcessing.Completed', 'PayslipProcessing.Completed']);
    await upload((await cases())[0]!.case_id, 'march.pdf', 'PAYSLIP March');
    await settle();
    expect(receiver.received.map((d) => d.body.event_type).sort()).toEqual([
      'DocumentProcessing.Completed',
      'PayslipProcessing.Completed',
    ]);
    expect(new Set(receiver.received.map((d) => d.headers['x-batch-correlation-id'])).size).toBe(1);
  });

  test('rule 4: a bank statement under both subscribed parents yields distinct deliveries', async () => {
    await subscribe(['DocumentProcessing.Completed', 'BankingProcessing.Completed']);
    await upload((await cases())[0]!.case_id, 'statement.pdf', 'BANK STATEMENT October');
    await settle();
    expect(receiver.received.map((d) => d.body.event_type).sort()).toEqual([
      'BankingProcessing.Completed',
      'DocumentProcessing.Completed',
    ]);
  });

  test('event types (§4.6): groups of entries with child entries, leaves empty', async () => {
    const tree = (await api('GET', '/webhooks/event-types')).body;
    const banking = tree.find((g: { event_group_name: string }) => g.event_group_name === 'Banking');
    expect(banking.event_types[0]).toEqual({
      event_name: 'BankingProcessing.Completed',
      event_types: [
        { event_name: 'OpenBankingProcessing.Completed', event_types: [] },
        { event_name: 'BankStatementProcessing.Completed', event_types: [] },
      ],
    });
  });
});

describe('§6.3 signing', () => {
  test('rules 1 and 2: with a secret, every delivery carries the Base64 HMAC-SHA256 of its exact body', async () => {
    await subscribe(['DocumentProcessing.Completed', 'IdentityVerification.Completed']);
    const secret = (await api('POST', '/webhooks/secrets')).body.secret;
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    await upload((await cases())[0]!.case_id, 'x.pdf', 'SA302 2025');
    await settle();
    expect(receiver.received).toHaveLength(2);
    for (const d of receiver.received) expect(d.headers['x-hmac-sha256-signature']).toBe(hmac(d.raw, secret));
  });

  test('rule 2: the signature covers the exact bytes, pretty-printed or compact, with raw UTF-8 names', async () => {
    await subscribe(['IdentityVerification.Completed']);
    const secret = (await api('POST', '/webhooks/secrets')).body.secret;
    const person = (await control(sim, 'POST', '/persons', { first_name: 'Søren', last_name: 'Erdős' })).body;
    for (let i = 0; i < 12; i++) {
      const requestId = (await api('POST', `/v2/persons/${person.person_id}/identity-verifications`, {})).body
        .request_id;
      await control(sim, 'POST', `/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    }
    const pretty = receiver.received.map((d) => d.raw.includes('\n  "data": {'));
    expect(new Set(pretty)).toEqual(new Set([true, false]));
    for (const d of receiver.received) {
      expect(d.raw).toMatch(/"name": ?"Søren Erdős"/);
      expect(d.headers['x-hmac-sha256-signature']).toBe(hmac(d.raw, secret));
    }
  });

  test('API answers are pretty-printed for a seeded share of calls, the same share for the same seed', async () => {
    const layouts = async () => {
      const acme = await company('Acme Widgets Ltd');
      const texts: string[] = [];
      for (let i = 0; i < 10; i++)
        texts.push((await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id })).text);
      return texts.map((t) => t.startsWith('{\n'));
    };
    await sim.stop();
    await boot({ seed: 11 });
    const first = await layouts();
    await sim.stop();
    await boot({ seed: 11 });
    expect(await layouts()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([true, false]));
  });

  test('seed data carries non-ASCII names, sent as raw UTF-8', async () => {
    const french = await company('Société Générale de Café Ørsted SARL');
    const report = await api('POST', '/v2/company-credit-reports', { company_id: french.company_id });
    expect(report.text).toContain('Société Générale de Café Ørsted SARL');
    expect(report.text).not.toContain('\\u');
  });

  test('rule 4: without a secret deliveries are unsigned; deleting the secret makes the next ones unsigned', async () => {
    await subscribe(['IdentityVerification.Completed']);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    await api('POST', '/webhooks/secrets');
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    expect((await api('DELETE', '/webhooks/secrets')).status).toBe(204);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    expect(receiver.received.map((d) => d.headers['x-hmac-sha256-signature'] !== undefined)).toEqual([
      false,
      true,
      false,
    ]);
  });

  test('rule 5: after a rotation new deliveries use the new secret; one already in flight keeps the old', async () => {
    await subscribe(['IdentityVerification.Completed']);
    const old = (await api('POST', '/webhooks/secrets')).body;
    await control(sim, 'PUT', '/fault-rates', { delivery_delay_rate: 1, delivery_delay_ms: 300 });
    const inFlight = control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    await waitUntil(() => sim.store.deliveries.length === 1);
    const rotated = (await api('PATCH', '/webhooks/secrets')).body;
    expect(Date.parse(rotated.date_updated)).toBeGreaterThanOrEqual(Date.parse(old.date_updated));
    await inFlight;
    await control(sim, 'PUT', '/fault-rates', {});
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    const [before, after] = receiver.received as [ReceivedDelivery, ReceivedDelivery];
    expect(before.headers['x-hmac-sha256-signature']).toBe(hmac(before.raw, old.secret));
    expect(after.headers['x-hmac-sha256-signature']).toBe(hmac(after.raw, rotated.secret));
  });
});

describe('§6.6 data shapes', () => {
  test('rule 1: a failed bank statement has bank_connection_id null, no accounts, and a message', async () => {
    await subscribe(['BankStatementProcessing.Completed']);
    await upload((await cases())[0]!.case_id, 'statement.pdf', 'BANK STATEMENT CORRUPT');
    await settle();
    expect(byType('BankStatementProcessing.Completed')[0]!.body.data).toMatchObject({
      status: 'Failed',
      bank_connection_id: null,
      connected_accounts: [],
      message: expect.stringMatching(/.+/),
    });
  });

  test('rule 2: a successful bank statement lists every account with working endpoints', async () => {
    await subscribe(['BankStatementProcessing.Completed']);
    await upload((await cases())[0]!.case_id, 'statement.pdf', 'BANK STATEMENT October');
    await settle();
    const data = byType('BankStatementProcessing.Completed')[0]!.body.data;
    expect(data).toMatchObject({ status: 'Complete', message: null });
    expect(data.connected_accounts.length).toBeGreaterThan(0);
    for (const account of data.connected_accounts) {
      for (const link of [
        account.bank_account_endpoint,
        account.bank_account_balances_endpoint,
        account.bank_account_transactions_endpoint,
      ]) {
        const response = await api('GET', link);
        expect(response.status).toBe(200);
        expect(response.body.account_connection_id).toBe(account.account_connection_id);
      }
    }
  });

  test('rule 3: a rejected open banking connection says so, with no accounts, in both events', async () => {
    await subscribe(['OpenBankingProcessing.Completed', 'BankingProcessing.Completed']);
    const connection = (await api('POST', `/v2/cases/${(await cases())[0]!.case_id}/open-banking-connections`)).body;
    await control(sim, 'POST', `/open-banking-connections/${connection.bank_connection_id}/complete`, {
      status: 'Rejected',
    });
    expect(byType('OpenBankingProcessing.Completed')[0]!.body.data).toMatchObject({
      status: 'Rejected',
      connected_accounts: [],
    });
    expect(byType('BankingProcessing.Completed')[0]!.body.data).toMatchObject({
      status: 'Rejected',
      connected_accounts: [],
    });
  });

  test('rule 4: a failed document still links to the original file and explains the failure', async () => {
    await subscribe(['DocumentProcessing.Completed', 'TaxOverviewProcessing.Completed']);
    await upload((await cases())[0]!.case_id, 'overview.pdf', 'TAX OVERVIEW CORRUPT');
    await upload((await cases())[0]!.case_id, 'blurry.jpg', 'nothing recognisable');
    await settle();
    for (const d of receiver.received) {
      expect(d.body.data).toMatchObject({ status: 'Failed', message: expect.stringMatching(/.+/) });
      const document = await api('GET', d.body.data.document.document_endpoint);
      expect(document.body).toMatchObject({
        document_id: d.body.data.document.document_id,
        file_name: d.body.data.document.file_name,
      });
    }
    expect(
      byType('DocumentProcessing.Completed')
        .map((d) => d.body.data.document_type)
        .sort(),
    ).toEqual(['TaxOverview', 'Unknown']);
  });

  test('rule 5: a failed income-and-employer check has a verification endpoint with the detail', async () => {
    await subscribe(['IncomeEmployerInsights.Completed']);
    const failing = (await cases()).find((c) => c.income_employer_outcome === 'Failed')!;
    await api('POST', `/v2/cases/${failing.case_id}/income-employer`);
    await settle();
    const data = byType('IncomeEmployerInsights.Completed')[0]!.body.data;
    expect(data.status).toBe('Failed');
    const detail = await api('GET', data.income_and_employer_request.verification_endpoint);
    expect(detail.body).toMatchObject({ status: 'Failed', failure_detail: expect.stringMatching(/.+/) });
  });

  test('rule 6: entity_type appears as Case and as case', async () => {
    await subscribe(['IncomeEmployerInsights.Completed']);
    for (const c of await cases()) await api('POST', `/v2/cases/${c.case_id}/income-employer`);
    await settle();
    expect(
      byType('IncomeEmployerInsights.Completed')
        .map((d) => d.body.data.entity_type)
        .sort(),
    ).toEqual(['Case', 'case']);
  });

  test('rule 7: identity_result_endpoint is the result path and identity_request_endpoint the list path', async () => {
    await subscribe(['IdentityVerification.Completed', 'IdentityVerification.Expired']);
    const requestId = await pendingIdv();
    await control(sim, 'POST', `/identity-verifications/${requestId}/complete`, {
      verification_status: 'ResubmissionRequested',
    });
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/expire`, {});
    const [completed, expired] = receiver.received as [ReceivedDelivery, ReceivedDelivery];
    expect(completed.body.data).toMatchObject({
      status: 'Completed',
      verification_status: 'ResubmissionRequested',
      date_completed: expect.any(String),
    });
    expect(expired.body.data).toMatchObject({ status: 'Expired', verification_status: 'NotCompleted' });
    expect(expired.body.data.date_completed).toBeUndefined();
    expect((await api('GET', completed.body.data.identity_request.identity_result_endpoint)).body).toMatchObject({
      request_id: requestId,
      verification_status: 'ResubmissionRequested',
    });
    const list = (await api('GET', completed.body.data.identity_request.identity_request_endpoint)).body;
    expect(list.map((r: { request_id: string }) => r.request_id)).toContain(requestId);
  });

  test('the affordability envelope names its send time sent_at_utc, as the spec example does', async () => {
    await subscribe(['AffordabilityInsights.Completed', 'IdentityVerification.Completed']);
    await api('POST', `/v2/cases/${(await cases())[0]!.case_id}/affordability-insights`);
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    await settle();
    const affordability = byType('AffordabilityInsights.Completed')[0]!.body;
    expect(affordability.sent_at_utc).toEqual(expect.any(String));
    expect(affordability.datetime_sent).toBeUndefined();
    expect(byType('IdentityVerification.Completed')[0]!.body.datetime_sent).toEqual(expect.any(String));
    expect((await api('GET', affordability.data.affordability_insight_endpoint)).body).toMatchObject({
      status: 'Complete',
    });
  });
});

describe("§4.4 the list of a person's requests", () => {
  test('excludes incomplete requests and filters by comma-separated statuses', async () => {
    const person = (await control(sim, 'GET', '/persons')).body[1].person_id;
    const create = async () => (await api('POST', `/v2/persons/${person}/identity-verifications`, {})).body.request_id;
    const [approved, declined, pending] = [await create(), await create(), await create()];
    await control(sim, 'POST', `/identity-verifications/${approved}/complete`, { verification_status: 'Approved' });
    await control(sim, 'POST', `/identity-verifications/${declined}/complete`, { verification_status: 'Declined' });
    const ids = async (query: string) =>
      ((await api('GET', `/v2/persons/${person}/identity-verifications${query}`)).body as { request_id: string }[]).map(
        (r) => r.request_id,
      );
    expect(await ids('')).toEqual([approved, declined, pending]);
    expect(await ids('?exclude_incomplete=true')).toEqual([approved, declined]);
    expect(await ids('?verification_status=Declined,Approved')).toEqual([approved, declined]);
    expect(await ids('?verification_status=Declined')).toEqual([declined]);
  });
});

describe('§8 limits', () => {
  test('webhook_name at most 50 characters and at least one event type', async () => {
    const create = (body: Record<string, unknown>) =>
      api('POST', '/webhooks', {
        webhook_callback_url: 'https://hooks.example.com/x',
        event_types: ['IdentityVerification.Completed'],
        webhook_name: 'n',
        ...body,
      });
    expect((await create({ webhook_name: 'n'.repeat(50) })).status).toBe(201);
    const long = await create({ webhook_name: 'n'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('webhook_name');
    expect((await create({ event_types: [] })).body.message).toContain('event_types');
    expect((await create({ webhook_callback_url: 'http://hooks.example.com/x' })).body.message).toContain(
      'webhook_callback_url',
    );
  });

  test('§2.1 event types come from the §6 list: an unknown one is 422 naming it, on create and on update', async () => {
    const create = await api('POST', '/webhooks', {
      webhook_name: 'w',
      webhook_callback_url: 'https://hooks.example.com/x',
      event_types: ['IdentityVerification.Completed', 'Foo.Bar'],
    });
    expect(create.status).toBe(422);
    expect(create.body).toMatchObject({
      error: 'unknown_event_type',
      unknown_event_types: ['Foo.Bar'],
      message: expect.stringContaining('Foo.Bar'),
    });
    const webhook = await subscribe(['IdentityVerification.Completed']);
    const update = await api('PUT', `/webhooks/${webhook.webhook_id}`, { event_types: ['Foo.Bar'] });
    expect([update.status, update.body.unknown_event_types]).toEqual([422, ['Foo.Bar']]);
    expect((await api('PUT', `/webhooks/${webhook.webhook_id}`, { webhook_name: 'renamed' })).status).toBe(200);
  });

  test('company_id at least one character', async () => {
    const response = await api('POST', '/v2/company-credit-reports', { company_id: '' });
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('company_id');
  });

  test('one global webhook secret', async () => {
    expect((await api('POST', '/webhooks/secrets')).status).toBe(201);
    expect((await api('POST', '/webhooks/secrets')).status).toBe(409);
  });

  test('updates follow the same rules', async () => {
    const webhook = await subscribe(['IdentityVerification.Completed']);
    expect((await api('PUT', `/webhooks/${webhook.webhook_id}`, { webhook_name: 'n'.repeat(51) })).status).toBe(400);
    expect(
      (
        await api('PUT', `/webhooks/${webhook.webhook_id}`, {
          event_types: ['PayslipProcessing.Completed'],
          external_ref: 'x',
        })
      ).body,
    ).toMatchObject({ event_types: ['PayslipProcessing.Completed'], external_ref: 'x' });
  });
});

describe('faults', () => {
  const rates = {
    delivery_drop_rate: 0.2,
    delivery_duplicate_rate: 0.2,
    delivery_delay_rate: 0.2,
    delivery_delay_ms: 20,
    delivery_reorder_rate: 0.2,
    delivery_tamper_rate: 0.2,
  };

  type Delivered = Pick<DeliveryLogEntry, 'delivery_id' | 'batch_id' | 'event_type' | 'faults' | 'outcome' | 'signed'>;
  async function scenario(): Promise<Delivered[]> {
    await subscribe([
      'DocumentProcessing.Completed',
      'PayslipProcessing.Completed',
      'BankingProcessing.Completed',
      'IdentityVerification.Completed',
      'IdentityVerification.Expired',
    ]);
    await api('POST', '/webhooks/secrets');
    const caseId = (await cases())[0]!.case_id;
    for (let i = 0; i < 6; i++) {
      await control(
        sim,
        'POST',
        `/identity-verifications/${await pendingIdv()}/${i % 2 ? 'expire' : 'complete'}`,
        i % 2 ? {} : { verification_status: 'Approved' },
      );
      await upload(caseId, `doc-${i}.pdf`, i % 2 ? 'PAYSLIP' : 'BANK STATEMENT');
      await settle();
    }
    return (await control(sim, 'GET', '/deliveries')).body.map(
      ({ delivery_id, batch_id, event_type, faults, outcome, signed }: DeliveryLogEntry) => ({
        delivery_id,
        batch_id,
        event_type,
        faults,
        outcome,
        signed,
      }),
    );
  }

  test('fault rates with a fixed seed give the same delivery log twice', async () => {
    await sim.stop();
    await boot({ seed: 42, faults: rates });
    const first = await scenario();
    await sim.stop();
    await boot({ seed: 42, faults: rates });
    const second = await scenario();
    expect(second).toEqual(first);
    const faults = new Set(first.flatMap((d) => d.faults));
    expect(faults).toEqual(new Set(['dropped', 'duplicated', 'delayed', 'reordered', 'tampered']));
  });

  test('a tampered delivery no longer matches its signature; a dropped one never arrives', async () => {
    await control(sim, 'PUT', '/fault-rates', { delivery_tamper_rate: 1 });
    await subscribe(['IdentityVerification.Completed']);
    const secret = (await api('POST', '/webhooks/secrets')).body.secret;
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    const [tampered] = receiver.received as [ReceivedDelivery];
    expect(tampered.headers['x-hmac-sha256-signature']).not.toBe(hmac(tampered.raw, secret));
    await control(sim, 'PUT', '/fault-rates', { delivery_drop_rate: 1 });
    await control(sim, 'POST', `/identity-verifications/${await pendingIdv()}/complete`, {
      verification_status: 'Approved',
    });
    expect(receiver.received).toHaveLength(1);
    expect((await control(sim, 'GET', '/deliveries')).body.map((d: DeliveryLogEntry) => d.outcome)).toEqual([
      'delivered',
      'dropped',
    ]);
  });

  test('API 5xx and 429 rates answer with the fault, 429 with Retry-After', async () => {
    await control(sim, 'PUT', '/fault-rates', { api_429_rate: 1, retry_after_seconds: 7 });
    const limited = await api('GET', '/webhooks/event-types');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await control(sim, 'PUT', '/fault-rates', { api_5xx_rate: 1 });
    expect((await api('GET', '/webhooks/event-types')).status).toBe(503);
    expect((await control(sim, 'PUT', '/fault-rates', { api_5xx_rate: 2 })).status).toBe(400);
  });
});

describe('start-up', () => {
  test('a busy port fails with a message naming the port', async () => {
    const port = Number(new URL(sim.baseUrl).port);
    const second = startSimulator({
      port,
      clientId: 'second',
      clientSecret: 'second',
      seed: 1,
      tokenLifetimeSeconds: 3600,
      allowInsecureLoopbackCallbacks: false,
    });
    await expect(second).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
    expect((await api('GET', '/webhooks/event-types')).status).toBe(200);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('behind a proxy (SIMULATOR_PUBLIC_URL)', () => {
  test('the base URL (written into payload links) and the token scope are the public URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const publicUrl = `http://localhost:${port}`;
    const proxied = await startSimulator({
      port,
      clientId: 'c',
      clientSecret: 's',
      seed: 3,
      tokenLifetimeSeconds: 3600,
      allowInsecureLoopbackCallbacks: true,
      publicUrl: `${publicUrl}/`,
    });
    try {
      expect(proxied.baseUrl).toBe(publicUrl);
      expect((await fetchToken(proxied, 's')).status).toBe(200);
      expect((await fetchToken(proxied, 's', { scope: `http://127.0.0.1:${port}/.default` })).status).toBe(400);
      const report = await (await fetch(`${publicUrl}/_control/ledger`)).json();
      expect(report).toHaveProperty('creditReports');
    } finally {
      await proxied.stop();
    }
  });
});
