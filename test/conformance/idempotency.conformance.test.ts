/**
 * The simulator's `Idempotency-Key` contract (docs/provider-assumptions.md A37), the response-lost
 * fault, the ledger and the control catalogue, over raw HTTP (not the project's own client).
 */
import { request as httpRequest } from 'node:http';
import type { ControlCall } from '../../simulator/controlApi';
import type { RunningSimulator } from '../../simulator/startSimulator';
import type { Case, Company, RequestLogEntry } from '../../simulator/store';
import { CONFORMANCE_SECRET as SECRET, useConformanceSimulator } from '../support/conformanceSimulator';
import { control, fetchToken, networkFailureOf, rawApi } from '../support/faultHarness/rawProviderApi';
import type { WebhookReceiver } from '../support/webhookReceiver';
import { waitUntil } from '../support/waitUntil';

let sim: RunningSimulator;
let receiver: WebhookReceiver;
let api: ReturnType<typeof rawApi>;
// The suite tests the mechanism the spec lacks, so it opts in to it.
const boot = useConformanceSimulator((current) => ({ sim, receiver, api } = current), { idempotencyKeys: 'honoured' });

/** A resource as a ledger list shows it, as far as these tests read it. */
interface LedgerEntry {
  idempotency_key: string | null;
  request_id?: string;
}

const key = (k: string) => ({ 'idempotency-key': k });
const ledger = async (query = '') => (await control(sim, 'GET', `/ledger${query}`)).body;
const settle = () => control(sim, 'POST', '/settle', {});
const companyNamed = async (name: string) =>
  ((await control(sim, 'GET', '/companies')).body as Company[]).find((c) => c.company_name === name)!;
const firstCase = async () => (await control(sim, 'GET', '/cases')).body[0].case_id as string;
const firstPerson = async () => (await control(sim, 'GET', '/persons')).body[0].person_id as string;
const count = (l: Record<string, unknown[]>) => Object.values(l).reduce((n, list) => n + list.length, 0);

/** Every creating call, with a valid request and the ledger list its resource lands in. */
async function creatingCalls() {
  const caseId = await firstCase();
  const acme = await companyNamed('Acme Widgets Ltd');
  const document = {
    entity_type: 'case',
    entity_id: caseId,
    file_name: 'march.pdf',
    content_base64: Buffer.from('PAYSLIP March').toString('base64'),
  };
  return [
    {
      name: 'request credit report',
      path: '/v2/company-credit-reports',
      body: { company_id: acme.company_id },
      list: 'creditReports',
    },
    {
      name: 'create IDV request',
      path: `/v2/persons/${await firstPerson()}/identity-verifications`,
      body: {},
      list: 'identityVerifications',
    },
    { name: 'upload document', path: '/v2/documents', body: document, list: 'documents' },
    {
      name: 'create open banking connection',
      path: `/v2/cases/${caseId}/open-banking-connections`,
      body: undefined,
      list: 'openBankingConnections',
    },
    {
      name: 'request affordability insight',
      path: `/v2/cases/${caseId}/affordability-insights`,
      body: undefined,
      list: 'affordabilityInsights',
    },
    {
      name: 'request income and employer',
      path: `/v2/cases/${caseId}/income-employer`,
      body: undefined,
      list: 'incomeEmployerRequests',
    },
  ];
}

describe('Idempotency-Key on creating calls', () => {
  test('a repeat with the same key answers the first status and exact body, and creates nothing', async () => {
    for (const call of await creatingCalls()) {
      const first = await api('POST', call.path, call.body, key(`k-${call.name}`));
      expect(first.status).toBeLessThan(300);
      await settle();
      const before = await ledger();
      const again = await api('POST', call.path, call.body, key(`k-${call.name}`));
      await settle();
      expect({ call: call.name, status: again.status, text: again.text }).toEqual({
        call: call.name,
        status: first.status,
        text: first.text,
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await ledger()).toEqual(before);
      expect(before[call.list]).toHaveLength(1);
      expect(before[call.list][0].idempotency_key).toBe(`k-${call.name}`);
    }
  });

  test('a repeat sends no second webhook and starts no second job', async () => {
    await api('POST', '/webhooks', {
      webhook_name: 'w',
      webhook_callback_url: receiver.url,
      event_types: ['DocumentProcessing.Completed', 'AffordabilityInsights.Completed'],
    });
    const caseId = await firstCase();
    const document = {
      entity_type: 'case',
      entity_id: caseId,
      file_name: 'p.pdf',
      content_base64: Buffer.from('PAYSLIP').toString('base64'),
    };
    for (let i = 0; i < 3; i++) {
      await api('POST', '/v2/documents', document, key('doc-1'));
      await api('POST', `/v2/cases/${caseId}/affordability-insights`, undefined, key('aff-1'));
      await settle();
    }
    expect(receiver.received.map((d) => d.body.event_type).sort()).toEqual([
      'AffordabilityInsights.Completed',
      'DocumentProcessing.Completed',
    ]);
  });

  test('without a key every call creates; a different key creates another resource', async () => {
    const caseId = await firstCase();
    await api('POST', `/v2/cases/${caseId}/open-banking-connections`);
    await api('POST', `/v2/cases/${caseId}/open-banking-connections`);
    await api('POST', `/v2/cases/${caseId}/open-banking-connections`, undefined, key('a'));
    await api('POST', `/v2/cases/${caseId}/open-banking-connections`, undefined, key('b'));
    expect((await ledger()).openBankingConnections.map((c: LedgerEntry) => c.idempotency_key)).toEqual([
      null,
      null,
      'a',
      'b',
    ]);
  });

  test('the same key with a different body or path is 422 idempotency_key_reuse and creates nothing', async () => {
    const acme = await companyNamed('Acme Widgets Ltd');
    const ambiguous = await companyNamed('Ambiguous Foods Ltd');
    await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k'));
    const otherBody = await api('POST', '/v2/company-credit-reports', { company_id: ambiguous.company_id }, key('k'));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toMatchObject({
      error: 'idempotency_key_reuse',
      message: expect.stringContaining('Idempotency-Key k'),
    });
    const [first, second] = ((await control(sim, 'GET', '/cases')).body as Case[]).map((c) => c.case_id);
    await api('POST', `/v2/cases/${first}/income-employer`, undefined, key('ie'));
    expect((await api('POST', `/v2/cases/${second}/income-employer`, undefined, key('ie'))).status).toBe(422);
    const l = await ledger();
    expect([l.creditReports.length, l.incomeEmployerRequests.length]).toEqual([1, 1]);
  });

  test('a call whose client went away before its body was read is not remembered: the retry with the key creates once', async () => {
    // Found by the fault suite: a worker killed while its call waited recorded an empty body, and
    // the new worker's retry was refused as idempotency_key_reuse. Here the client sends its
    // headers and half of its body, then goes away.
    const acme = await companyNamed('Acme Widgets Ltd');
    const body = JSON.stringify({ company_id: acme.company_id });
    const bearer = (await fetchToken(sim, SECRET)).body.access_token as string;
    const { hostname, port } = new URL(sim.baseUrl);
    const partial = httpRequest({
      hostname,
      port,
      method: 'POST',
      path: '/v2/company-credit-reports',
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        'idempotency-key': 'k-gone',
        authorization: `Bearer ${bearer}`,
      },
    });
    const failed = new Promise<void>((resolve) => partial.on('error', () => resolve()));
    partial.write(body.slice(0, 5), () => partial.destroy());
    await failed;
    // No answer to wait on (its client is gone): the simulator counts the call it dropped.
    await waitUntil('the aborted call counted as abandoned', () => sim.store.abandonedCalls === 1);
    const retry = await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k-gone'));
    expect(retry.status).toBe(201);
    expect((await ledger()).creditReports).toHaveLength(1);
  });

  test('a call under latency is carried out as it arrives: a client that gives up during the delay has bought the report, and its retry with the key is answered that report', async () => {
    // The simulator reads a body as it arrives, before its injected latency, so an abandoned request
    // creates the report, as a real provider would.
    const acme = await companyNamed('Acme Widgets Ltd');
    await control(sim, 'PUT', '/fault-rates', { api_latency_ms: [3_000, 3_000] });
    const bearer = (await fetchToken(sim, SECRET)).body.access_token as string;
    const aborted = new AbortController();
    const gone = fetch(`${sim.baseUrl}/v2/company-credit-reports`, {
      method: 'POST',
      signal: aborted.signal,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': 'k-abandoned',
        authorization: `Bearer ${bearer}`,
      },
      body: JSON.stringify({ company_id: acme.company_id }),
    });
    const bought = await waitUntil(
      'the report created while its answer is held back',
      async () => (await ledger()).creditReports[0],
    );
    aborted.abort();
    await expect(gone).rejects.toThrow(/abort/i);
    await control(sim, 'PUT', '/fault-rates', {});
    const retry = await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k-abandoned'));
    expect([retry.status, retry.headers.get('idempotent-replayed'), retry.body.report_id]).toEqual([
      201,
      'true',
      bought.report_id,
    ]);
    const l = await ledger();
    expect(l.creditReports).toHaveLength(1);
    expect(l.creditReports[0]).toMatchObject({ report_id: bought.report_id, idempotency_key: 'k-abandoned' });
  });

  test('latency holds back the answer, not the work: the answer comes after the delay, a lost one is cut after it', async () => {
    const acme = await companyNamed('Acme Widgets Ltd');
    await control(sim, 'PUT', '/fault-rates', { api_latency_ms: [400, 400] });
    const started = Date.now();
    const answered = await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k-slow'));
    expect(answered.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    await control(sim, 'PUT', '/fault-rates', {
      api_latency_ms: [400, 400],
      response_lost_rate: 1,
      response_lost_routes: ['POST /v2/company-credit-reports'],
    });
    const cutAt = Date.now();
    expect(
      (
        await networkFailureOf(
          api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k-slow-lost')),
        )
      ).message,
    ).toBe('fetch failed');
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(390);
    await control(sim, 'PUT', '/fault-rates', {});
    expect((await ledger()).creditReports.map((r: LedgerEntry) => r.idempotency_key)).toEqual([
      'k-slow',
      'k-slow-lost',
    ]);
  });

  test('a scripted latency holds back the answer of the next call to its route: the report exists at once, its answer comes after the delay', async () => {
    const acme = await companyNamed('Acme Widgets Ltd');
    expect(
      (await control(sim, 'POST', '/faults', { method: 'POST', path: '/v2/company-credit-reports', latency_ms: 1_500 }))
        .status,
    ).toBe(201);
    const started = Date.now();
    let answeredAt: number | undefined;
    const slow = api(
      'POST',
      '/v2/company-credit-reports',
      { company_id: acme.company_id },
      key('k-scripted-slow'),
    ).then((answer) => {
      answeredAt = Date.now();
      return answer;
    });
    const bought = await waitUntil(
      'the report created while its answer is held back',
      async () => (await ledger()).creditReports[0],
    );
    expect(answeredAt).toBeUndefined();
    const answered = await slow;
    expect([answered.status, answered.body.report_id]).toEqual([201, bought.report_id]);
    expect((answeredAt as number) - started).toBeGreaterThanOrEqual(1_490);
    // The fault was for one call: the next is answered without the delay.
    const next = Date.now();
    expect(
      (await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('k-scripted-fast'))).status,
    ).toBe(201);
    expect(Date.now() - next).toBeLessThan(1_000);
  });

  test('a key is scoped to its route: the same key on another route creates there', async () => {
    const caseId = await firstCase();
    await api('POST', `/v2/cases/${caseId}/affordability-insights`, undefined, key('shared'));
    await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('shared'));
    const l = await ledger();
    expect([l.affordabilityInsights.length, l.incomeEmployerRequests.length]).toEqual([1, 1]);
  });

  test('an answer that did not begin work (400) is not kept: a corrected retry with the key creates', async () => {
    const invalid = await api('POST', '/v2/company-credit-reports', { company_id: '' }, key('fix-me'));
    expect(invalid.status).toBe(400);
    const acme = await companyNamed('Acme Widgets Ltd');
    expect(
      (await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('fix-me'))).status,
    ).toBe(201);
  });

  test('a 422 of the handler is kept and answered again', async () => {
    const nonumber = await companyNamed('Nonumber Trading Ltd');
    const first = await api('POST', '/v2/company-credit-reports', { company_id: nonumber.company_id }, key('k422'));
    const again = await api('POST', '/v2/company-credit-reports', { company_id: nonumber.company_id }, key('k422'));
    expect([first.status, again.status, again.text]).toEqual([422, 422, first.text]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  test('an empty or overlong key is 400; a quoted key (structured field) is the key inside the quotes', async () => {
    const caseId = await firstCase();
    expect((await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('""'))).status).toBe(400);
    expect((await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('x'.repeat(256)))).status).toBe(
      400,
    );
    const quoted = await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('"q-1"'));
    const bare = await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('q-1'));
    expect(bare.text).toBe(quoted.text);
    expect((await ledger()).incomeEmployerRequests.map((r: LedgerEntry) => r.idempotency_key)).toEqual(['q-1']);
  });

  test('IDV creation: the body field idempotency_key still adopts; the header wins over it', async () => {
    const person = await firstPerson();
    const path = `/v2/persons/${person}/identity-verifications`;
    const byBody = await api('POST', path, { idempotency_key: 'body-key' });
    const adopted = await api('POST', path, { idempotency_key: 'body-key' });
    expect([byBody.status, adopted.status, adopted.body.request_id]).toEqual([201, 200, byBody.body.request_id]);
    const byHeader = await api('POST', path, { idempotency_key: 'body-key' }, key('header-key'));
    expect(byHeader.status).toBe(201);
    expect(byHeader.body.request_id).not.toBe(byBody.body.request_id);
    expect(
      (await ledger(`?person_id=${person}`)).identityVerifications.map((r: LedgerEntry) => r.idempotency_key),
    ).toEqual(['body-key', 'header-key']);
  });

  test('a picklist resolution repeated with its key is applied once', async () => {
    const ambiguous = await companyNamed('Ambiguous Foods Ltd');
    const report = (await api('POST', '/v2/company-credit-reports', { company_id: ambiguous.company_id }, key('r')))
      .body;
    const choice = { report_id: report.report_id, provider_id: report.picklist[1].provider_id };
    const first = await api('POST', '/v2/company-credit-reports/picklist', choice, key('p'));
    const again = await api('POST', '/v2/company-credit-reports/picklist', choice, key('p'));
    expect([first.status, again.status, again.text]).toEqual([200, 200, first.text]);
    expect((await api('POST', '/v2/company-credit-reports/picklist', choice)).status).toBe(409);
    const l = await ledger(`?company_id=${ambiguous.company_id}`);
    expect(l.creditReports).toEqual([
      expect.objectContaining({
        report_id: report.report_id,
        idempotency_key: 'r',
        status: 'Complete',
        had_picklist: true,
        picklist_resolved: true,
        picklist_resolutions: 1,
      }),
    ]);
    expect(l.picklistResolutions).toEqual([
      expect.objectContaining({
        report_id: report.report_id,
        provider_id: choice.provider_id,
        idempotency_key: 'p',
        company_id: ambiguous.company_id,
      }),
    ]);
  });
});

describe('the response-lost fault', () => {
  test('scripted: the call is processed, the client sees a socket error, a retry with the key gets the resource', async () => {
    const acme = await companyNamed('Acme Widgets Ltd');
    const scripted = await control(sim, 'POST', '/faults', {
      method: 'POST',
      path: '/v2/company-credit-reports',
      response_lost: true,
      times: 2,
    });
    expect(scripted.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const failure = await networkFailureOf(
        api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('lost-1')),
      );
      expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'UND_ERR_SOCKET' } });
    }
    const created = (await ledger()).creditReports;
    expect(created).toEqual([
      expect.objectContaining({ company_id: acme.company_id, idempotency_key: 'lost-1', status: 'Complete' }),
    ]);
    const retry = await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('lost-1'));
    expect(retry.status).toBe(201);
    expect(retry.body.report_id).toBe(created[0].report_id);
    expect((await ledger()).creditReports).toHaveLength(1);
    const log = ((await control(sim, 'GET', '/requests')).body as RequestLogEntry[]).filter(
      (r) => r.path === '/v2/company-credit-reports',
    );
    expect(log.map((r) => [r.status, r.response_lost ?? false])).toEqual([
      [201, true],
      [201, true],
      [201, false],
    ]);
  });

  test('scripted: a lost answer still runs the side effects (jobs and webhooks)', async () => {
    await api('POST', '/webhooks', {
      webhook_name: 'w',
      webhook_callback_url: receiver.url,
      event_types: ['IncomeEmployerInsights.Completed'],
    });
    const caseId = await firstCase();
    await control(sim, 'POST', '/faults', {
      method: 'POST',
      path: '/v2/cases/:caseId/income-employer',
      response_lost: true,
    });
    await networkFailureOf(api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('ie-lost')));
    await settle();
    const [requestId] = (await ledger()).incomeEmployerRequests.map((r: LedgerEntry) => r.request_id);
    expect(receiver.received.map((d) => d.body.data.income_and_employer_request.request_id)).toEqual([requestId]);
    expect((await api('POST', `/v2/cases/${caseId}/income-employer`, undefined, key('ie-lost'))).body.request_id).toBe(
      requestId,
    );
  });

  test('a scripted fault takes status, response_lost or latency_ms, and not status with response_lost', async () => {
    const base = { method: 'POST', path: '/v2/documents' };
    expect((await control(sim, 'POST', '/faults', base)).status).toBe(400);
    expect((await control(sim, 'POST', '/faults', { ...base, status: 503, response_lost: true })).status).toBe(400);
    expect((await control(sim, 'POST', '/faults', { ...base, status: 503 })).status).toBe(201);
    expect((await control(sim, 'POST', '/faults', { ...base, latency_ms: 100 })).status).toBe(201);
  });

  test('by rate, limited to routes: other routes answer; a retry of a lost call returns what it created', async () => {
    await control(sim, 'PUT', '/fault-rates', {
      response_lost_rate: 1,
      response_lost_routes: ['POST /v2/cases/:caseId/open-banking-connections'],
    });
    const caseId = await firstCase();
    expect((await api('GET', '/webhooks/event-types')).status).toBe(200);
    expect((await api('POST', `/v2/cases/${caseId}/affordability-insights`)).status).toBe(202);
    const failure = await networkFailureOf(
      api('POST', `/v2/cases/${caseId}/open-banking-connections`, undefined, key('ob-1')),
    );
    expect(failure.cause.code).toBe('UND_ERR_SOCKET');
    const [lost] = (await ledger(`?case_id=${caseId}`)).openBankingConnections;
    expect(lost).toMatchObject({ case_id: caseId, idempotency_key: 'ob-1', status: 'Pending' });
    await control(sim, 'PUT', '/fault-rates', {});
    const retry = await api('POST', `/v2/cases/${caseId}/open-banking-connections`, undefined, key('ob-1'));
    expect([retry.status, retry.body.bank_connection_id]).toEqual([201, lost.bank_connection_id]);
  });

  test('by rate with a seed: the same calls lose the same answers, and every lost call is recovered by its key', async () => {
    const rates = {
      response_lost_rate: 0.5,
      response_lost_routes: ['POST /v2/persons/:personId/identity-verifications'],
    };
    async function run(): Promise<boolean[]> {
      await sim.stop();
      await boot({ seed: 77, faults: rates });
      const path = `/v2/persons/${await firstPerson()}/identity-verifications`;
      const lost: boolean[] = [];
      for (let i = 0; i < 12; i++) {
        lost.push(
          await api('POST', path, {}, key(`idv-${i}`)).then(
            () => false,
            () => true,
          ),
        );
      }
      await control(sim, 'PUT', '/fault-rates', {});
      const created = (await ledger()).identityVerifications;
      expect(created.map((r: LedgerEntry) => r.idempotency_key)).toEqual(lost.map((_, i) => `idv-${i}`));
      for (const [i, r] of created.entries())
        expect((await api('POST', path, {}, key(`idv-${i}`))).body.request_id).toBe(r.request_id);
      return lost;
    }
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([true, false]));
  });

  test('response_lost_routes must name routes of the routes table', async () => {
    const refused = await control(sim, 'PUT', '/fault-rates', { response_lost_routes: ['POST /v2/credit-reports'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('unknown route "POST /v2/credit-reports"');
    expect((await control(sim, 'PUT', '/fault-rates', { response_lost_rate: 1.5 })).status).toBe(400);
  });
});

describe('the ledger and the control catalogue', () => {
  test('the ledger lists what was created, narrowed by case, company or person', async () => {
    const [caseA, caseB] = ((await control(sim, 'GET', '/cases')).body as Case[]).map((c) => c.case_id);
    const acme = await companyNamed('Acme Widgets Ltd');
    const person = await firstPerson();
    await api('POST', `/v2/cases/${caseA}/open-banking-connections`, undefined, key('a-ob'));
    await api('POST', `/v2/cases/${caseB}/open-banking-connections`, undefined, key('b-ob'));
    await api(
      'POST',
      '/v2/documents',
      {
        entity_type: 'case',
        entity_id: caseB,
        file_name: 's.pdf',
        content_base64: Buffer.from('SA302').toString('base64'),
      },
      key('b-doc'),
    );
    await api('POST', '/v2/company-credit-reports', { company_id: acme.company_id }, key('acme'));
    await api('POST', `/v2/persons/${person}/identity-verifications`, {}, key('idv'));
    expect(count(await ledger())).toBe(5);
    const b = await ledger(`?case_id=${caseB}`);
    expect(b.openBankingConnections.map((c: LedgerEntry) => c.idempotency_key)).toEqual(['b-ob']);
    expect(b.documents).toEqual([
      expect.objectContaining({ case_id: caseB, file_name: 's.pdf', idempotency_key: 'b-doc' }),
    ]);
    expect([b.creditReports, b.identityVerifications]).toEqual([[], []]);
    expect(count(await ledger(`?company_id=${acme.company_id}`))).toBe(1);
    expect((await ledger(`?person_id=${person}`)).identityVerifications).toEqual([
      expect.objectContaining({ person_id: person, idempotency_key: 'idv', status: 'Pending' }),
    ]);
  });

  test('GET /_control lists the control calls', async () => {
    const response = await control(sim, 'GET', '');
    expect(response.status).toBe(200);
    const calls = (response.body as ControlCall[]).map((c) => `${c.method} ${c.path}`);
    expect(calls).toEqual(
      expect.arrayContaining([
        'GET /_control',
        'GET /_control/ledger',
        'POST /_control/faults',
        'PUT /_control/fault-rates',
        'GET /_control/requests',
      ]),
    );
    for (const c of response.body) expect(c.description).toEqual(expect.stringMatching(/.+/));
  });
});
