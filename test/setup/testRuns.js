/**
 * Which run each test file belongs to (jest.config.js picks one by JOURNEYS_SUITE):
 *
 * - `npm test`: the fast levels of the pyramid (units, the workflows' decisions on stubbed
 *   activities, the case file, activities, the simulator's conformance, the codec, replay) and one
 *   end-to-end path per capability on the real stack;
 * - `npm run test:e2e` (JOURNEYS_SUITE=e2e): every other suite that runs a whole stack — the
 *   bought-once rule under lost answers, operator actions mid-purchase, the bridge's edges, the
 *   case API's and the console's behaviours end to end;
 * - `npm run test:faults` (JOURNEYS_SUITE=faults): the fault suites, which kill and restart servers.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Folders whose suites run in `npm test` whole: none starts a stack. */
const fastFolders = ['unit', 'logic', 'case-file', 'activities', 'conformance', 'codec', 'replay'];

/** The end-to-end suites `npm test` runs: one path per capability, on the real stack. */
const capabilityPaths = {
  'a journey through every step, from start to completion': 'workflows/onboardCase.test.ts',
  'a signed delivery through the bridge to the step that waits for it': 'e2e/bridge.test.ts',
  'the case API, a first case from nothing (docs/integration.md)': 'api/integrationWalkthrough.test.ts',
  "the LOS's events, verified and taken once": 'e2e/losIntegration.test.ts',
  'the operator console in a browser': 'api/console.test.ts',
  "the operator's journey commands": 'workflows/journeyCli.test.ts',
  "the codec server for Temporal's Web UI": 'e2e/codecServer.test.ts',
};

const testRoot = path.join(__dirname, '..');

/**
 * End-to-end suites a run leaves out (E2E_LEAVE_OUT, paths under test/, comma-separated): CI leaves
 * out the case API's contract, which its fault run covers at a larger size.
 */
const leftOut = (process.env.E2E_LEAVE_OUT ?? '')
  .split(',')
  .map((file) => file.trim())
  .filter((file) => file !== '');
for (const file of leftOut)
  if (!fs.existsSync(path.join(testRoot, file)))
    throw new Error(
      `E2E_LEAVE_OUT names ${file}: expected a test file's path under test/, such as api/caseApiContract.test.ts`,
    );
const inTest = (relative) => `<rootDir>/test/${relative}`;

module.exports = {
  capabilityPaths,
  /** `npm test`: the fast folders and the capability paths. */
  fast: [
    ...fastFolders.map((folder) => inTest(`${folder}/**/*.test.ts`)),
    ...Object.values(capabilityPaths).map(inTest),
  ],
  /** `npm run test:e2e`: every other suite outside test/faults. */
  e2e: {
    match: [inTest('**/*.test.ts')],
    ignore: [
      ...fastFolders.map((folder) => inTest(`${folder}/`)),
      ...[...Object.values(capabilityPaths), ...leftOut].map((file) => inTest(file.replace(/\./g, '\\.'))),
      inTest('faults/'),
    ],
  },
  faults: [inTest('faults/**/*.test.ts')],
  testRoot,
};
