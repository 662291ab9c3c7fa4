/** Where the case file is: DATABASE_URL validated, else the embedded one with its pool of one. */
import { readCaseFileConfig } from '../../case-file/config';

test('without DATABASE_URL every process points at the embedded case file, one connection each', () => {
  const config = readCaseFileConfig({ CASE_FILE_PORT: '15433', CASE_FILE_DATA_DIR: '/tmp/cf' });
  const password = config.embedded?.password ?? '';
  expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
  expect(config).toEqual({
    url: `postgresql://postgres:${password}@127.0.0.1:15433/postgres`,
    poolSize: 1,
    embedded: { port: 15433, dataDir: '/tmp/cf', password },
  });
});

test('DATABASE_URL names a PostgreSQL; the pool size is configurable', () => {
  expect(
    readCaseFileConfig({ DATABASE_URL: 'postgresql://app:secret@db:5432/lender', DATABASE_POOL_SIZE: '8' }),
  ).toEqual({ url: 'postgresql://app:secret@db:5432/lender', poolSize: 8 });
});

test('a wrong value stops the process naming the variable, never echoing the URL', () => {
  expect(() => readCaseFileConfig({ DATABASE_URL: 'mysql://app:secret@db/lender' })).toThrow(
    /DATABASE_URL: must be a postgres/,
  );
  expect(() => readCaseFileConfig({ DATABASE_URL: 'mysql://app:secret@db/lender' })).not.toThrow(/secret/);
  expect(() => readCaseFileConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  expect(() => readCaseFileConfig({ CASE_FILE_PORT: 'x' })).toThrow(/CASE_FILE_PORT/);
});
