/**
 * The case file store against an embedded PGlite (served over the wire protocol), and against a
 * real PostgreSQL too when TEST_DATABASE_URL is set (.ci/run starts one).
 *
 * This suite checks the whole database (the migrations table, no document content without its
 * document anywhere) and changes its schema (a probe migration), so it runs on a case file of its
 * own, not the one every other suite writes to: a PGlite of its own, in a process of its own (PGlite
 * is one backend session, so a search_path would be every connection's), and a schema of its own
 * on PostgreSQL.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { migrate } from '../../case-file/migrate';
import { EMBEDDED_POOL_SIZE, openPool } from '../../case-file/pool';
import { openCaseFile, type CaseFileStore } from '../../case-file/store';
import type { BankAccount, BankBalances, BankTransactions } from '../../provider';
import { startCaseFileProcess, type CaseFileProcess } from '../support/caseFileProcess';

interface Target {
  /** Creates the suite's own case file and answers its URL. */
  open(): Promise<string>;
  close(): Promise<void>;
}

function ownPGlite(): Target {
  let embedded: CaseFileProcess | undefined;
  return {
    async open() {
      embedded = await startCaseFileProcess();
      return embedded.url;
    },
    close: async () => embedded?.stop(),
  };
}

/** A schema of the suite's own on the PostgreSQL at `url`, every connection's search_path (libpq `options`). */
function ownSchema(url: string): Target {
  const schema = `store_test_${randomUUID().replace(/-/g, '')}`;
  const admin = openPool(url, 1);
  return {
    async open() {
      await admin.query(`CREATE SCHEMA ${schema}`);
      const own = new URL(url);
      own.searchParams.set('options', `-c search_path=${schema}`);
      return own.toString();
    },
    async close() {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

const targets: [string, () => Target, number][] = [['embedded PGlite', ownPGlite, EMBEDDED_POOL_SIZE]];
if (process.env.TEST_DATABASE_URL)
  targets.push(['PostgreSQL (TEST_DATABASE_URL)', () => ownSchema(process.env.TEST_DATABASE_URL as string), 4]);

function account(transactions: number): {
  account: BankAccount;
  balances: BankBalances;
  transactions: BankTransactions;
} {
  const id = randomUUID();
  return {
    account: {
      account_connection_id: id,
      bank_name: 'Northwind Bank',
      account_name: 'Current Account',
      sort_code: '12-34-56',
      account_number_masked: '****1234',
      currency: 'GBP',
    },
    balances: {
      account_connection_id: id,
      balances: [{ type: 'current', amount: 1234.5, currency: 'GBP', as_of: '2026-11-20T00:00:00Z' }],
    },
    transactions: {
      account_connection_id: id,
      transactions: Array.from({ length: transactions }, (_, i) => ({
        transaction_id: `t${i}`,
        booking_date: `2026-${String((i % 12) + 1).padStart(2, '0')}-15`,
        amount: -(i + 1) / 100,
        currency: 'GBP',
        description: `Shop ${i}`,
        category: null,
      })),
    },
  };
}

describe.each(targets)('case file on %s', (_name, target, poolSize) => {
  const own = target();
  let caseFileUrl: string;
  const url = () => caseFileUrl;
  let store: CaseFileStore;
  beforeAll(async () => {
    caseFileUrl = await own.open();
    store = await openCaseFile(url(), poolSize);
  });
  afterAll(async () => {
    await store?.close();
    await own.close();
  });

  it('applies a migration once when two processes start at the same time, and records it', async () => {
    const version = 900_000 + Math.floor(Math.random() * 99_999);
    const table = `migration_probe_${version}`;
    const probe = [{ version, name: 'probe', sql: `CREATE TABLE ${table} (id int)` }];
    const pools = [openPool(url(), 1), openPool(url(), 1)];
    try {
      const applied = await Promise.all(pools.map((p) => migrate(p, probe)));
      expect(applied.map((a) => a.length).sort()).toEqual([0, 1]);
      expect(await migrate(pools[0]!, probe)).toEqual([]);
      const recorded = await store.pool.query('SELECT name FROM schema_migrations WHERE version = $1', [version]);
      expect(recorded.rows).toEqual([{ name: 'probe' }]);
    } finally {
      await store.pool.query(`DROP TABLE IF EXISTS ${table}`);
      await store.pool.query('DELETE FROM schema_migrations WHERE version = $1', [version]);
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('serves several processes at once: concurrent writes and reads from separate pools all land', async () => {
    // Against the embedded PGlite this is several connections multiplexed onto its one backend.
    const others = await Promise.all([openCaseFile(url(), poolSize), openCaseFile(url(), poolSize)]);
    try {
      const caseId = randomUUID();
      const reads = Array.from({ length: 6 }, () => account(500));
      await Promise.all(
        reads.map((read, i) => {
          const writer = [store, ...others][i % 3]!;
          return Promise.all([
            writer.writeBankAccount(
              { caseId, attemptId: `case/${caseId}/banking` },
              read.account,
              read.balances,
              read.transactions,
            ),
            writer.counts(caseId),
          ]);
        }),
      );
      expect(await others[1]!.counts(caseId)).toMatchObject({ bank_accounts: 6, bank_transactions: 3_000 });
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  it('writes an account and its transactions once, however often the activity retries', async () => {
    const at = { caseId: randomUUID(), attemptId: '' };
    at.attemptId = `case/${at.caseId}/banking`;
    const read = account(3_600);
    await store.writeBankAccount(at, read.account, read.balances, read.transactions);
    await store.writeBankAccount(at, read.account, read.balances, read.transactions);
    const counts = await store.counts(at.caseId);
    expect(counts).toMatchObject({ bank_accounts: 1, bank_transactions: 3_600 });
    const evidence = await store.evidence(at.caseId);
    expect(evidence.bankAccounts[0]).toMatchObject({
      bank_name: 'Northwind Bank',
      account_number_masked: '****1234',
      attempt_id: at.attemptId,
    });
    expect(evidence.bankAccounts[0]!.transactions[0]).toMatchObject({
      transaction_id: 't0',
      amount: -0.01,
      booking_date: '2026-01-15',
    });
  });

  it('stores a document once per case and gives its bytes back unchanged', async () => {
    const caseId = randomUUID();
    const content = randomBytes(5 * 1024 * 1024);
    const first = await store.putDocument({
      caseId,
      fileName: 'statement.pdf',
      documentType: 'BankStatement',
      content,
    });
    const again = await store.putDocument({ caseId, fileName: 'statement-copy.pdf', content });
    expect(again.document_id).toBe(first.document_id);
    expect(first.size_bytes).toBe(content.length);
    const read = await store.readDocument(first.document_id);
    expect(read?.content.equals(content)).toBe(true);
    expect(await store.readDocument(randomUUID())).toBeUndefined();
    expect(await store.readDocument('not-a-uuid')).toBeUndefined();
  });

  it('purges one case entirely and leaves the others', async () => {
    const [purged, kept] = [randomUUID(), randomUUID()];
    for (const caseId of [purged, kept]) {
      const read = account(10);
      await store.writeBankAccount(
        { caseId, attemptId: `case/${caseId}/banking` },
        read.account,
        read.balances,
        read.transactions,
      );
      await store.putDocument({ caseId, fileName: 'p.pdf', content: Buffer.from(`PAYSLIP ${caseId}`) });
      await store.writeCreditReport(
        { caseId, attemptId: `case/${caseId}/credit-report` },
        { report_id: randomUUID(), company_id: 'c1', status: 'Complete', picklist: null, report: null },
      );
    }
    const deleted = await store.purge(purged);
    expect(deleted).toMatchObject({ bank_accounts: 1, bank_transactions: 10, documents: 1, credit_reports: 1 });
    expect(Object.values(await store.counts(purged)).every((n) => n === 0)).toBe(true);
    expect(await store.counts(kept)).toMatchObject({
      bank_accounts: 1,
      bank_transactions: 10,
      documents: 1,
      credit_reports: 1,
    });
    const orphans = await store.pool.query(
      'SELECT count(*)::int AS n FROM document_contents WHERE document_id NOT IN (SELECT document_id FROM documents)',
    );
    expect(orphans.rows[0]).toEqual({ n: 0 });
  });
});
