// `npm test` runs the fast levels and one end-to-end path per capability; `npm run test:e2e` the
// other whole-stack suites (JOURNEYS_SUITE=e2e); `npm run test:faults` the fault suites, which kill
// and restart servers (JOURNEYS_SUITE=faults). test/setup/testRuns.js says which file runs where.
const runs = require('./test/setup/testRuns');

const suite = process.env.JOURNEYS_SUITE ?? 'fast';
if (!['fast', 'e2e', 'faults'].includes(suite))
  throw new Error(`JOURNEYS_SUITE=${suite}: expected e2e, faults, or nothing (npm test's fast run)`);
// `npx jest test/workflows/x.test.ts` runs the suite it names, whichever run it belongs to.
const namesSuites = process.argv.slice(2).some((arg) => /\.test\.ts$|^test\//.test(arg));
const selection = {
  fast: namesSuites
    ? { testMatch: runs.e2e.match, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/faults/'] }
    : { testMatch: runs.fast, testPathIgnorePatterns: ['/node_modules/'] },
  e2e: { testMatch: runs.e2e.match, testPathIgnorePatterns: ['/node_modules/', ...runs.e2e.ignore] },
  faults: { testMatch: runs.faults, testPathIgnorePatterns: ['/node_modules/'] },
}[suite];

/** @type {import('jest').Config} */
module.exports = {
  // Node's environment, and a file that leaves a socket, a child process or a timer running fails.
  testEnvironment: '<rootDir>/test/setup/leftoverHandles.ts',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  ...selection,
  // Workflow and e2e tests share one throwaway Temporal dev server started here.
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  setupFiles: ['<rootDir>/test/setup/quietRuntime.ts'],
  // Two suites at a time: most of a suite's time is spent waiting on Temporal's timers and the
  // provider's, so two cores serve two suites and the dev server (npm test took 10 minutes with
  // one, under 6 with two). The fault suites too: each kills only servers it started itself (the
  // shared dev server is never killed), and two at a time took 11 minutes against 20 in band.
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/setup/longSuitesFirst.js',
  // A worker that has run a file with a Temporal worker keeps 20-40 MB of it that no collection
  // frees (measured with --expose-gc --logHeapUsage: 690 and 940 MB held after 57 files each), and
  // a process that large takes longer to exit than the 500 ms Jest allows ("A worker process has
  // failed to exit gracefully"). Jest replaces a worker holding more than this
  // after a file, so none grows past it.
  workerIdleMemoryLimit: '512MB',
  testTimeout: 60_000,
};
