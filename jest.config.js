/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Workflow and e2e tests share one throwaway Temporal dev server started here.
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  setupFiles: ['<rootDir>/test/setup/quietRuntime.ts'],
  // Two cores: one jest worker runs the suites while the other core serves Temporal.
  maxWorkers: 1,
  testTimeout: 60_000,
};
