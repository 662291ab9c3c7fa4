/**
 * Evidence validity windows on the real stack, with a credit report window of three seconds: the
 * applicant completes the identity check only once the report is past it. By default the journey
 * buys exactly one new report before it completes, tells the LOS (`case.evidence_refreshed`, also
 * on the case's timeline) and the case shows the new validUntil; with `refreshStale: false` it buys
 * none and completes with the report flagged stale.
 */
import { Webhook } from 'standardwebhooks';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { caseApiClient } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
let stack: Stack;
let receiver: WebhookReceiver;
let api: ReturnType<typeof caseApiClient>;
let origination: string;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 3491,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    caseEvents: { url: receiver.url, secret, timeoutMs: 5_000 },
  });
  api = caseApiClient(stack.caseApi.url);
  origination = stack.caseApiKeys!.origination;
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const control = (path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

/** The LOS's verified deliveries of one case, in the order the journey sent them (one run: by sequence). */
function losEvents(caseId: string) {
  const webhook = new Webhook(secret);
  return receiver.received
    .filter((d) => d.body?.data?.caseId === caseId)
    .map(
      (d) =>
        webhook.verify(d.raw, d.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown> & { sequence: number; step?: { key: string; attempt: number } };
        },
    )
    .sort((a, b) => a.data.sequence - b.data.sequence);
}

/**
 * A case with a credit report (window: three seconds) and one person's identity check; the
 * applicant completes the check once the report is past its window. Answers the journey's end.
 */
async function journeyWithAgedReport(extra: Record<string, unknown>) {
  const caseId = (await control('/cases', {})).case_id as string;
  const company = await control('/companies', {
    company_name: `Aged Report ${caseId.slice(0, 8)} Ltd`,
    company_number: `AR${caseId.slice(0, 6)}`,
    country_code: 'GB',
  });
  const companyId = company.company_id as string;
  const personId = (await control('/persons', {})).person_id as string;
  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        company: { company_id: companyId, country_code: 'GB' },
        people: [{ personId }],
        steps: { creditReport: true, identityVerification: true },
        deadlines: { identityVerification: '2 minutes', reconcileAfter: '5 seconds' },
        freshness: { creditReport: '3 seconds' },
        ...extra,
      },
    ],
  });
  const idvKey = `identity-verification/${personId}`;
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => !!s.steps['credit-report']?.evidence && !!s.steps[idvKey]?.providerIds.request_id,
  );
  const validUntil = Date.parse(waiting.steps['credit-report']!.evidence!.validUntil);
  await waitUntil('the credit report goes past its window', () => Date.now() > validUntil, { timeoutMs: 15_000 });
  const request = waiting.steps[idvKey]!.providerIds.request_id!;
  await control(`/identity-verifications/${request}/complete`, { verification_status: 'Approved' });
  const done = await handle.result();
  const ledger = {
    creditReports: ((await control(`/ledger?company_id=${companyId}`)).creditReports as unknown[]).length,
    idvRequests: ((await control(`/ledger?person_id=${personId}`)).identityVerifications as unknown[]).length,
  };
  return { caseId, done, ledger };
}

test('a credit report that aged past its window before the identity check completed is bought once more, and the LOS is told', async () => {
  const { caseId, done, ledger } = await journeyWithAgedReport({});

  expect(done.state).toBe('completed');
  expect(ledger).toEqual({ creditReports: 2, idvRequests: 1 });
  const report = done.steps['credit-report']!;
  expect(report.attempts.map((a) => a.need)).toEqual([1, 2]);
  expect(report.evidence).toMatchObject({ kind: 'creditReport', refreshes: 1, stale: false });

  const events = await waitUntil('the LOS has case.completed', () => {
    const all = losEvents(caseId);
    return all.some((e) => e.type === 'case.completed') && all;
  });
  const refreshed = events.filter((e) => e.type === 'case.evidence_refreshed');
  expect(refreshed).toHaveLength(1);
  expect(refreshed[0]!.data).toMatchObject({
    step: { key: 'credit-report', attempt: 2 },
    kind: 'creditReport',
    reason: expect.stringMatching(/^evidence stale: creditReport valid until /),
    validUntil: report.evidence!.validUntil,
  });
  const types = events.map((e) => e.type);
  expect(types.indexOf('case.evidence_refreshed')).toBeLessThan(types.indexOf('case.completed'));

  const view = await api('GET', `/v1/cases/${caseId}`, { key: origination });
  expect(view.body.evidence['credit-report']).toMatchObject({ validUntil: report.evidence!.validUntil, refreshes: 1 });
  const timeline = await waitUntil('the timeline has the refresh', async () => {
    const entries = (await api('GET', `/v1/cases/${caseId}/timeline`, { key: origination })).body.entries as {
      type?: string;
      step?: string | null;
    }[];
    return entries.some((e) => e.type === 'case.evidence_refreshed') && entries;
  });
  expect(timeline.find((e) => e.type === 'case.evidence_refreshed')).toMatchObject({ step: 'credit-report' });
});

test('with refreshStale false the journey buys no new report and completes with the report flagged stale', async () => {
  const { caseId, done, ledger } = await journeyWithAgedReport({ refreshStale: false });

  expect(done.state).toBe('completed');
  expect(ledger).toEqual({ creditReports: 1, idvRequests: 1 });
  expect(done.steps['credit-report']!.evidence).toMatchObject({ stale: true, refreshes: 0 });
  expect(done.reasons).toEqual([expect.stringContaining('completed with stale evidence: credit-report')]);

  const view = await api('GET', `/v1/cases/${caseId}`, { key: origination });
  expect(view.body.evidence['credit-report']).toMatchObject({ stale: true });
  const events = await waitUntil('the LOS has case.completed', () => {
    const all = losEvents(caseId);
    return all.some((e) => e.type === 'case.completed') && all;
  });
  expect(events.map((e) => e.type)).not.toContain('case.evidence_refreshed');
});
