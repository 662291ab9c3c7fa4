// `npm test` runs everything but the fault suites, which kill and restart servers; those run
// with `npm run test:faults` (JOURNEYS_SUITE=faults).
const faults = process.env.JOURNEYS_SUITE === 'faults';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testMatch: faults ? ['<rootDir>/test/faults/**/*.test.ts'] : ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: faults ? ['/node_modules/'] : ['/node_modules/', '<rootDir>/test/faults/'],
  // Workflow and e2e tests share one throwaway Temporal dev server started here.
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  setupFiles: ['<rootDir>/test/setup/quietRuntime.ts'],
  // Two cores: one jest worker runs the suites while the other core serves Temporal.
  maxWorkers: 1,
  testTimeout: 60_000,
};
