/**
 * `npm run bench:case-file`: writes of one banking read (3 accounts × 12 months × 300 transactions
 * a month, 10,800 transactions, as in test/workflows/largeCase.test.ts) per second through the
 * case file store, on the embedded PGlite (served over the wire protocol, as `npm start` and the
 * tests serve it) and on a throwaway PostgreSQL when its server is installed.
 *
 * Baseline, on the same database in the same run: the same rows inserted by one bare statement
 * (INSERT … SELECT FROM unnest, every row of the read at once) into a table with the same columns
 * and indexes and no foreign key, each row's amount, description and category sealed as the store
 * seals them (case-file/fieldCipher.ts): the least any store that keeps them encrypted at rest
 * does. Target: store ≥ 0.5× of that (docs/benchmarks.md says why). Also reported: the same rows
 * inserted bare and not sealed, so that what sealing costs shows apart.
 *
 * Also: how long the real banking activity (readConnectedAccount: three provider reads, the case
 * file write, the summary) spends in the case file for that read, against the simulator.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { createBankingActivities } from '../activities/bankingActivities';
import { ProviderClient } from '../activities/providerClient';
import type { CaseFileAttempt } from '../case-file/attempt';
import { startEmbeddedCaseFile } from '../case-file/embeddedServer';
import { EMBEDDED_POOL_SIZE } from '../case-file/pool';
import { payloadKeyCipher, type FieldCipher } from '../case-file/fieldCipher';
import { sealJson } from '../case-file/sealedRows';
import { CaseFileStore, openCaseFile } from '../case-file/store';
import { generatePayloadKey } from '../codec/payloadKeys';
import type { BankAccount, BankBalances, BankTransactions } from '../provider';
import { connectedAccount, generateAccount } from '../simulator/accountGenerator';
import { SeededRandom } from '../simulator/seededRandom';
import { startSimulator } from '../simulator/startSimulator';
import { createStore, type StoredAccount } from '../simulator/store';
import { exitCodeOf, ratioAtLeast, ratioReported, reportResult, reportSize, type BenchResult } from './benchResult';
import { startThrowawayPostgres } from '../test/support/faultHarness/throwawayPostgres';
import { exitWhenDone } from './exitWhenDone';

const ACCOUNTS = 3;
const VOLUME = { months: 12, transactionsPerMonth: 300 };
const ROWS_PER_READ = ACCOUNTS * VOLUME.months * VOLUME.transactionsPerMonth;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const READS_PER_ROUND = Number(process.env.BENCH_READS ?? 3);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2);
const TARGET = 0.5;

type BankingRead = StoredAccount[];

const simulated = createStore(new SeededRandom(13));
let reads = 0;
function bankingRead(): BankingRead {
  const caseId = `bench-case-${++reads}`;
  return Array.from({ length: ACCOUNTS }, () => generateAccount(simulated, caseId, VOLUME));
}

/** One banking read as the worker writes it: one writeBankAccount per account, side by side. */
async function storeWrite(store: CaseFileStore, read: BankingRead): Promise<void> {
  const at: CaseFileAttempt = { caseId: read[0]!.case_id, attemptId: `case/${read[0]!.case_id}/banking` };
  await Promise.all(read.map((a) => store.writeBankAccount(at, a.account, a.balances, a.transactions)));
}

const BARE_TABLE = 'bench_bare_transactions';

/** The read's transactions, each with the account it belongs to. */
function rowsOf(read: BankingRead) {
  return read.flatMap((a) =>
    a.transactions.transactions.map((t) => ({ owner: a.account.account_connection_id, ...t })),
  );
}

/** The same rows, one statement, no account rows, no foreign key, no ON CONFLICT, nothing sealed. */
async function barePlainWrite(pool: Pool, read: BankingRead): Promise<void> {
  const rows = rowsOf(read);
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  await pool.query(
    `INSERT INTO ${BARE_TABLE} (case_id, attempt_id, account_connection_id, transaction_id, booking_date, amount, currency, description, category)
     SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::date[], $6::numeric[], $7::text[], $8::text[], $9::text[])`,
    [
      read[0]!.case_id,
      `case/${read[0]!.case_id}/banking`,
      column('owner'),
      column('transaction_id'),
      column('booking_date'),
      column('amount'),
      column('currency'),
      column('description'),
      column('category'),
    ],
  );
}

/** As barePlainWrite, with amount, description and category sealed into `sealed` as the store seals them. */
async function bareSealedWrite(pool: Pool, cipher: FieldCipher, read: BankingRead): Promise<void> {
  const rows = rowsOf(read);
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  const sealed = rows.map((t) =>
    sealJson(cipher, { amount: t.amount, description: t.description, category: t.category }),
  );
  await pool.query(
    `INSERT INTO ${BARE_TABLE} (case_id, attempt_id, account_connection_id, transaction_id, booking_date, currency, sealed)
     SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::date[], $6::text[], $7::bytea[])`,
    [
      read[0]!.case_id,
      `case/${read[0]!.case_id}/banking`,
      column('owner'),
      column('transaction_id'),
      column('booking_date'),
      column('currency'),
      sealed,
    ],
  );
}

async function timed(work: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

interface Figures {
  storeReadsPerSecond: number;
  bareSealedReadsPerSecond: number;
  barePlainReadsPerSecond: number;
}

const WAYS = ['store', 'bare sealed', 'bare plain'] as const;
type Way = (typeof WAYS)[number];

async function measure(label: string, url: string, poolSize: number): Promise<Figures> {
  const store = await openCaseFile(url, poolSize);
  // The bare INSERT seals with a key of its own, through the same cipher as the store's.
  const cipher = payloadKeyCipher([generatePayloadKey('bench')]);
  const write: Record<Way, (read: BankingRead) => Promise<void>> = {
    store: (read) => storeWrite(store, read),
    'bare sealed': (read) => bareSealedWrite(store.pool, cipher, read),
    'bare plain': (read) => barePlainWrite(store.pool, read),
  };
  try {
    await store.pool.query(
      `CREATE TABLE IF NOT EXISTS ${BARE_TABLE} (LIKE bank_transactions INCLUDING DEFAULTS INCLUDING INDEXES)`,
    );
    for (let i = 0; i < WARM_UP; i++) for (const way of WAYS) await write[way](bankingRead());
    const totalMs: Record<Way, number> = { store: 0, 'bare sealed': 0, 'bare plain': 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const roundMs: Record<Way, number> = { store: 0, 'bare sealed': 0, 'bare plain': 0 };
      // Taking turns, so that whatever else the machine does falls on each alike.
      for (let i = 0; i < READS_PER_ROUND; i++)
        for (const way of WAYS) {
          const read = bankingRead();
          roundMs[way] += await timed(() => write[way](read));
        }
      for (const way of WAYS) totalMs[way] += roundMs[way];
      console.log(
        `  ${label} round ${round + 1}, ms per read: ` +
          WAYS.map((way) => `${way} ${(roundMs[way] / READS_PER_ROUND).toFixed(0)}`).join(', '),
      );
    }
    const perSecond = (way: Way) => (ROUNDS * READS_PER_ROUND * 1000) / totalMs[way];
    const figures = {
      storeReadsPerSecond: perSecond('store'),
      bareSealedReadsPerSecond: perSecond('bare sealed'),
      barePlainReadsPerSecond: perSecond('bare plain'),
    };
    const rowsPerSecond = (readsPerSecond: number) => `${(readsPerSecond * ROWS_PER_READ).toFixed(0)} rows/s`;
    console.log(
      `${label}: store ${rowsPerSecond(figures.storeReadsPerSecond)}, ` +
        `bare INSERT sealed ${rowsPerSecond(figures.bareSealedReadsPerSecond)} (ratio ${(figures.storeReadsPerSecond / figures.bareSealedReadsPerSecond).toFixed(2)}), ` +
        `bare INSERT plain ${rowsPerSecond(figures.barePlainReadsPerSecond)} (ratio ${(figures.storeReadsPerSecond / figures.barePlainReadsPerSecond).toFixed(2)})`,
    );
    return figures;
  } finally {
    await store.close();
  }
}

/** The store against each bare INSERT: the target against the sealed one, the plain one reported. */
function writeResults(label: string, figures: Figures): BenchResult[] {
  const figure = { value: figures.storeReadsPerSecond, unit: 'banking reads/s' };
  return [
    ratioAtLeast(
      `case file writes (${label})`,
      figure,
      { value: figures.bareSealedReadsPerSecond, name: 'bare INSERT … unnest, sealed' },
      TARGET,
    ),
    ratioReported(`case file writes against plain rows (${label})`, figure, {
      value: figures.barePlainReadsPerSecond,
      name: 'bare INSERT … unnest, not sealed',
    }),
  ];
}

/** Records when each banking write started and ended. */
class TimedCaseFile extends CaseFileStore {
  writes: [number, number][] = [];

  override async writeBankAccount(
    at: CaseFileAttempt,
    account: BankAccount,
    balances: BankBalances,
    transactions: BankTransactions,
  ): Promise<void> {
    const t0 = performance.now();
    await super.writeBankAccount(at, account, balances, transactions);
    this.writes.push([t0, performance.now()]);
  }
}

/** Wall time covered by at least one of the intervals (parallel writes counted once). */
function covered(intervals: readonly [number, number][]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

/**
 * The banking activity for a 3-account read, as the worker runs it (three in parallel), against
 * the simulator and the embedded case file: total time and time inside the case file write.
 */
async function bankingActivityTime(url: string): Promise<{ activityMs: number; caseFileMs: number }> {
  const simulator = await startSimulator({
    port: 0,
    clientId: 'bench',
    clientSecret: 'bench-secret',
    seed: 13,
    tokenLifetimeSeconds: 3600,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 0,
  });
  const opened = await openCaseFile(url, EMBEDDED_POOL_SIZE);
  const store = new TimedCaseFile(opened.pool);
  try {
    const provider = new ProviderClient({
      baseUrl: simulator.baseUrl,
      authUrl: simulator.authUrl,
      clientId: 'bench',
      clientSecrets: ['bench-secret'],
      requestTimeoutMs: 30_000,
    });
    const banking = createBankingActivities(provider, store);
    const once = async (caseId: string) => {
      const links = Array.from({ length: ACCOUNTS }, () =>
        connectedAccount(simulator.baseUrl, generateAccount(simulator.store, caseId, VOLUME)),
      );
      store.writes.length = 0;
      const t0 = performance.now();
      await Promise.all(links.map((l) => banking.readConnectedAccount({ ...l, caseId })));
      return { activityMs: performance.now() - t0, caseFileMs: covered(store.writes) };
    };
    await once('bench-activity-warm-up');
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await once(`bench-activity-${i}`));
    return {
      activityMs: runs.reduce((a, r) => a + r.activityMs, 0) / runs.length,
      caseFileMs: runs.reduce((a, r) => a + r.caseFileMs, 0) / runs.length,
    };
  } finally {
    await store.close();
    await simulator.stop();
  }
}

async function main(): Promise<number> {
  reportSize(`${ROUNDS} rounds of ${READS_PER_ROUND} banking reads each way (BENCH_ROUNDS, BENCH_READS)`);
  console.log(
    `case file writes: one read = ${ACCOUNTS} accounts × ${VOLUME.months} months × ${VOLUME.transactionsPerMonth} transactions = ${ROWS_PER_READ} rows; ${ROUNDS} rounds × ${READS_PER_ROUND} reads each way, warm-up ${WARM_UP}`,
  );
  console.log(
    `machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const results: BenchResult[] = [];

  const embedded = await startEmbeddedCaseFile();
  try {
    console.log(`PGlite: in memory, served by pglite-socket, one pool connection (EMBEDDED_POOL_SIZE)`);
    results.push(...writeResults('PGlite', await measure('PGlite', embedded.url, EMBEDDED_POOL_SIZE)));
    const activity = await bankingActivityTime(embedded.url);
    console.log(
      `banking activity (readConnectedAccount × ${ACCOUNTS} in parallel, simulator + PGlite): ${activity.activityMs.toFixed(0)} ms per read, ` +
        `of which ${activity.caseFileMs.toFixed(0)} ms with a writeBankAccount under way (wall time, parallel writes counted once)`,
    );
    results.push(
      ratioReported(
        'banking activity in case file (PGlite)',
        { value: activity.caseFileMs, unit: 'ms per read' },
        { value: activity.activityMs, name: 'whole activity' },
      ),
    );
  } finally {
    await embedded.stop();
  }

  // Without PostgreSQL's server (or when it will not start) the PGlite figures stand alone.
  const postgres = await startThrowawayPostgres().catch((error: Error) => ({ skipped: error.message.split('\n')[0] }));
  if ('skipped' in postgres) {
    console.log(`PostgreSQL: skipped: ${postgres.skipped}`);
  } else {
    try {
      console.log(`PostgreSQL: ${postgres.version}, throwaway cluster, ${postgres.settings}, pool of 4`);
      results.push(...writeResults('PostgreSQL', await measure('PostgreSQL', postgres.url, 4)));
    } finally {
      postgres.remove();
    }
  }
  for (const r of results) reportResult(r);
  return exitCodeOf(results);
}

exitWhenDone(main);
