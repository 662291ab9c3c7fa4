/**
 * Issue #10's "done when": a case with 3 accounts × 12 months × 300 transactions a month, a 5 MB
 * bank statement and a 600 KB payslip completes; the case file holds every transaction and both
 * documents; no payload of any of the journey's histories reaches 64 KiB, encrypted or decoded.
 * The figures go to stdout (docs/benchmarks.md records them).
 */
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyHistories } from '../../client/journeyReplay';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { payloadSizes, type PayloadSizes } from '../support/historyPayloads';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { startOnboardCase } from '../support/startOnboardCase';

const ACCOUNTS = 3;
const MONTHS = 12;
const PER_MONTH = 300;
const PAYLOAD_BOUND = 64 * 1024;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1010,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 50,
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** A file of `size` bytes that reads as its kind to the simulator (and never as damaged). */
function fakeFile(kind: string, size: number): Buffer {
  const line = Buffer.from(`${kind} page of a scanned document, nothing damaged here.\n`);
  return Buffer.concat([Buffer.from(`${kind}\n`), Buffer.alloc(size, line)]).subarray(0, size);
}

test('a large case completes with every transaction and both documents in the case file, and only small payloads in its histories', async () => {
  const control = simulatorControl(stack.simulator);
  const caseId = ((await control('/cases', { income_employer_outcome: 'Complete' })) as { case_id: string }).case_id;
  const statement = await stack.caseFile.putDocument({
    caseId,
    fileName: 'statement-2026.pdf',
    documentType: 'BankStatement',
    content: fakeFile('BANK STATEMENT', 5 * 1024 * 1024),
  });
  const payslip = await stack.caseFile.putDocument({
    caseId,
    fileName: 'payslip-october.pdf',
    documentType: 'Payslip',
    content: fakeFile('PAYSLIP', 600 * 1024),
  });

  const handle = await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [
      {
        caseId,
        steps: {
          banking: 'open_banking',
          affordability: true,
          incomeEmployer: true,
          documents: [statement, payslip].map(({ document_id, file_name, document_type }) => ({
            document_id,
            file_name,
            document_type: document_type as 'BankStatement' | 'Payslip',
          })),
        },
        deadlines: {
          banking: '60 seconds',
          documents: '60 seconds',
          affordability: '60 seconds',
          incomeEmployer: '60 seconds',
        },
      },
    ],
  });
  const waiting = await waitForStatus(
    handle,
    journeyStatusQuery,
    (s) => s.steps.banking?.state === 'waiting' && Boolean(s.steps.banking.providerIds.bank_connection_id),
  );
  await control(`/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, {
    status: 'Connected',
    accounts: ACCOUNTS,
    months: MONTHS,
    transactions_per_month: PER_MONTH,
  });
  const outcome = await handle.result();
  expect(outcome.state).toBe('completed');

  const banking = outcome.steps.banking!.detail as {
    accounts: { transactions: number; first_booking_date: string; last_booking_date: string; case_file: unknown }[];
  };
  expect(banking.accounts).toHaveLength(ACCOUNTS);
  for (const account of banking.accounts) {
    expect(account).toMatchObject({
      transactions: MONTHS * PER_MONTH,
      first_booking_date: expect.any(String),
      last_booking_date: expect.any(String),
      case_file: { case_id: caseId, attempt_id: `case/${caseId}/banking`, record: 'bank_account' },
    });
  }

  // The simulator dates them back from the day it connected the bank: MONTHS periods of 28 days.
  for (const { first_booking_date: first, last_booking_date: last } of banking.accounts) {
    const spanDays = (Date.parse(last) - Date.parse(first)) / 86_400_000;
    expect({ spanDays, lastDaysAgo: Math.floor((Date.now() - Date.parse(last)) / 86_400_000) }).toEqual({
      spanDays: MONTHS * 28 - 1,
      lastDaysAgo: 0,
    });
  }

  const counts = await stack.caseFile.counts(caseId);
  expect(counts).toMatchObject({
    bank_accounts: ACCOUNTS,
    documents: 2,
    provider_documents: 2,
    affordability_insights: 1,
    income_employer_results: 1,
  });
  // Every transaction of the three accounts (the bank statement's own accounts are not this attempt's).
  const evidence = await stack.caseFile.evidence(caseId);
  const openBanking = evidence.bankAccounts.filter((a) => a.attempt_id === `case/${caseId}/banking`);
  expect(openBanking.map((a) => a.transactions.length)).toEqual([3600, 3600, 3600]);
  expect(counts.affordability_transactions).toBeGreaterThanOrEqual(ACCOUNTS * MONTHS * PER_MONTH);
  expect(counts.document_bytes).toBe(5 * 1024 * 1024 + 600 * 1024);
  expect(
    (await stack.caseFile.readDocument(statement.document_id))?.content.equals(
      fakeFile('BANK STATEMENT', 5 * 1024 * 1024),
    ),
  ).toBe(true);

  const histories = await journeyHistories({ client: stack.client, taskQueue: stack.temporal.taskQueue }, caseId);
  const codec = new EncryptionCodec(stack.payloadKeys);
  const sizes: [string, PayloadSizes][] = [];
  for (const [workflowId, history] of histories) sizes.push([workflowId, await payloadSizes(history, codec)]);
  const largest = Math.max(...sizes.map(([, s]) => Math.max(s.largestEncoded, s.largestDecoded)));
  const total = (key: keyof PayloadSizes) => sizes.reduce((sum, [, s]) => sum + s[key], 0);
  process.stdout.write(
    `large case: ${histories.size} histories, ${total('payloads')} payloads; largest payload ${largest} bytes; ` +
      `payloads ${total('totalEncoded')} bytes encoded / ${total('totalDecoded')} decoded; histories ${total('historyBytes')} bytes in all\n` +
      sizes
        .map(
          ([id, s]) =>
            `  ${id.replace(caseId, '<case>')}: ${s.historyBytes} bytes, largest payload ${s.largestEncoded} encoded / ${s.largestDecoded} decoded\n`,
        )
        .join(''),
  );
  expect(histories.size).toBeGreaterThanOrEqual(5);
  expect(largest).toBeLessThan(PAYLOAD_BOUND);
}, 180_000);
