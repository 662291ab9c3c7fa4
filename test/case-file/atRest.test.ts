/**
 * Personal data at rest in the embedded case file: what a journey writes of the applicant (document
 * bytes, bank details, transactions, IDV results, what the provider extracted) is not readable in
 * the database's files nor in a dump of its tables; its files are the user's alone; and it serves
 * nobody without the password.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { EMBEDDED_POOL_SIZE } from '../../case-file/pool';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';
import { testDirectory } from '../setup/testEnvironment';

const marker = (label: string) => `${label}-${randomBytes(6).toString('hex')}`;
const secrets = {
  documentBytes: marker('PAYSLIP-BYTES'),
  fileName: `${marker('payslip-ada')}.pdf`,
  sortCode: `${randomBytes(3).toString('hex')}-SC`,
  accountNumber: `****${marker('ACCT')}`,
  accountName: marker('Ada Lovelace Current'),
  transaction: marker('Rent to Landlord Byron'),
  identityLink: `https://idv.example/${marker('link')}`,
  extracted: marker('Employer Analytical Engines'),
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? [full, ...filesUnder(full)] : [full];
  });
}

async function writeJourneyData(store: CaseFileStore, caseId: string): Promise<string> {
  const at = { caseId, attemptId: `case/${caseId}/banking` };
  const accountId = randomUUID();
  await store.writeBankAccount(
    at,
    {
      account_connection_id: accountId,
      bank_name: 'Northwind Bank',
      account_name: secrets.accountName,
      sort_code: secrets.sortCode,
      account_number_masked: secrets.accountNumber,
      currency: 'GBP',
    },
    {
      account_connection_id: accountId,
      balances: [{ type: 'current', amount: 4321.5, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' }],
    },
    {
      account_connection_id: accountId,
      transactions: [
        {
          transaction_id: 't1',
          booking_date: '2026-10-01',
          amount: -950,
          currency: 'GBP',
          description: secrets.transaction,
          category: 'rent',
        },
        {
          transaction_id: 't2',
          booking_date: '2026-10-25',
          amount: 2500.25,
          currency: 'GBP',
          description: 'Salary',
          category: null,
        },
      ],
    },
  );
  const requestId = randomUUID();
  await store.writeIdentityVerificationResult(
    { caseId, attemptId: `case/${caseId}/identity-verification/p1` },
    {
      request_id: requestId,
      person_id: 'p1',
      status: 'Completed',
      verification_status: 'Approved',
      identity_link: secrets.identityLink,
      date_created: '2026-11-20T00:00:00Z',
      date_completed: '2026-11-20T00:05:00Z',
      checks: [{ check: 'document', outcome: 'clear' }],
    },
  );
  const stored = await store.putDocument({
    caseId,
    fileName: secrets.fileName,
    documentType: 'Payslip',
    content: Buffer.from(secrets.documentBytes),
  });
  await store.writeProviderDocument({ caseId, attemptId: `case/${caseId}/documents` }, stored.document_id, {
    document_id: randomUUID(),
    file_name: secrets.fileName,
    document_type: 'Payslip',
    status: 'Complete',
    message: null,
    entity_type: 'Person',
    entity_id: 'p1',
    extracted_data: { employer: secrets.extracted },
  });
  return stored.document_id;
}

describe('the embedded case file at rest', () => {
  let dataDir: string;
  let caseFile: CaseFileProcess;
  let store: CaseFileStore;
  let dump: string;
  const caseId = randomUUID();

  beforeAll(async () => {
    dataDir = testDirectory('case-file-at-rest');
    caseFile = await startCaseFileProcess({ dataDir });
    store = await openCaseFile(caseFile.url, EMBEDDED_POOL_SIZE);
    const documentId = await writeJourneyData(store, caseId);
    // What the store answers is what was written: sealing is invisible to its readers.
    const document = await store.readDocument(documentId);
    expect([document?.file_name, document?.content.toString()]).toEqual([secrets.fileName, secrets.documentBytes]);
    const evidence = await store.evidence(caseId);
    expect(evidence.bankAccounts[0]).toMatchObject({
      account_number_masked: secrets.accountNumber,
      sort_code: secrets.sortCode,
      balances: [{ type: 'current', amount: 4321.5 }],
    });
    expect(evidence.bankAccounts[0]?.transactions.map((t) => [t.description, t.amount])).toEqual([
      [secrets.transaction, -950],
      ['Salary', 2500.25],
    ]);
    expect(evidence.idvResults[0]?.result).toMatchObject({ identity_link: secrets.identityLink });
    expect(evidence.providerDocuments[0]).toMatchObject({ extracted_data: { employer: secrets.extracted } });
    const desk = await store.deskEvidence(caseId);
    expect(desk.bankAccounts[0]?.months).toEqual([{ month: '2026-10', moneyIn: 2500.25, moneyOut: 950 }]);
    // A dump of every table, each row as text (what pg_dump would write).
    const tables = await store.pool.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    const rows: string[] = [];
    for (const { name } of tables.rows) {
      const result = await store.pool.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
      rows.push(...result.rows.map((r) => r.row));
    }
    dump = rows.join('\n');
    await store.close();
    await caseFile.stop();
  }, 120_000);

  afterAll(async () => {
    await store?.close().catch(() => undefined);
    await caseFile?.stop();
  });

  it('holds no document byte, bank detail, transaction or IDV link in plain text: not in a dump of its tables', () => {
    expect(dump).toContain(caseId);
    expect(Object.values(secrets).filter((secret) => dump.includes(secret))).toEqual([]);
  });

  it('nor anywhere in its files', () => {
    const found = filesUnder(dataDir)
      .filter((file) => statSync(file).isFile())
      .flatMap((file) => {
        const bytes = readFileSync(file);
        return Object.values(secrets)
          .filter((secret) => bytes.includes(secret))
          .map((secret) => `${path.relative(dataDir, file)}: ${secret}`);
      });
    expect(found).toEqual([]);
  });

  it('keeps its files 0600 and its folders 0700, those PGlite created after the start included', () => {
    const loose = [dataDir, ...filesUnder(dataDir)]
      .map((file) => ({ file: path.relative(dataDir, file) || '.', stat: statSync(file) }))
      .filter(({ stat }) => (stat.mode & 0o777) !== (stat.isDirectory() ? 0o700 : 0o600))
      .map(({ file, stat }) => `${file} ${(stat.mode & 0o777).toString(8)}`);
    expect(loose).toEqual([]);
  });
});

describe('connecting to the embedded case file', () => {
  let caseFile: CaseFileProcess;
  beforeAll(async () => {
    caseFile = await startCaseFileProcess();
  }, 90_000);
  afterAll(async () => caseFile?.stop());

  const connect = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const withPassword = (password: string) => {
    const url = new URL(caseFile.url);
    url.password = password;
    return url.toString();
  };

  it('is refused without the password, or with another one', async () => {
    await expect(connect(withPassword(''))).rejects.toThrow(/password authentication failed/);
    await expect(connect(withPassword('not-the-password'))).rejects.toThrow(/password authentication failed/);
  });

  it('is served with it', async () => {
    expect(await connect(caseFile.url)).toBe(1);
  });

  it('still reads the plain rows written before the case file encrypted', async () => {
    const store = await openCaseFile(caseFile.url, EMBEDDED_POOL_SIZE);
    try {
      const caseId = randomUUID();
      const at = [caseId, `case/${caseId}/banking`, 'acc-1'];
      await store.pool.query(
        `INSERT INTO bank_accounts (case_id, attempt_id, account_connection_id, bank_name, account_name, sort_code,
           account_number_masked, currency, balances) VALUES ($1, $2, $3, 'Old Bank', 'Old Account', '01-02-03',
           '****0001', 'GBP', '[]')`,
        at,
      );
      await store.pool.query(
        `INSERT INTO bank_transactions (case_id, attempt_id, account_connection_id, transaction_id, booking_date,
           amount, currency, description) VALUES ($1, $2, $3, 't1', '2026-09-03', -12.5, 'GBP', 'Old shop')`,
        at,
      );
      const [account] = (await store.evidence(caseId)).bankAccounts;
      expect(account).toMatchObject({ sort_code: '01-02-03', account_number_masked: '****0001' });
      expect(account?.transactions).toMatchObject([{ description: 'Old shop', amount: -12.5 }]);
      expect((await store.deskEvidence(caseId)).bankAccounts[0]?.months).toEqual([
        { month: '2026-09', moneyIn: 0, moneyOut: 12.5 },
      ]);
    } finally {
      await store.close();
    }
  });
});
