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

/**
 * The journey suites that write most to the case file (the purchase ledger under lost answers,
 * concurrent attempts and operator actions). CI runs them once, against PostgreSQL
 * (.ci/store-tests-on-postgres), and leaves them out of its end-to-end run on the embedded case
 * file (E2E_CASE_FILE_JOURNEYS=postgres); `npm run test:e2e` runs them on the embedded one.
 */
const caseFileJourneys = [
  'workflows/boughtOnce.test.ts',
  'workflows/lostResponses.test.ts',
  'workflows/purchaseRecorded.test.ts',
  'workflows/operatorActions.test.ts',
];
const caseFileJourneysAt = process.env.E2E_CASE_FILE_JOURNEYS ?? 'embedded';
if (!['embedded', 'postgres'].includes(caseFileJourneysAt))
  throw new Error(`E2E_CASE_FILE_JOURNEYS=${caseFileJourneysAt}: expected postgres (CI) or embedded (the default)`);
const caseFileJourneysOnPostgres = caseFileJourneysAt === 'postgres';

const testRoot = path.join(__dirname, '..');
const inTest = (relative) => `<rootDir>/test/${relative}`;

module.exports = {
  capabilityPaths,
  caseFileJourneys,
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
      ...[...Object.values(capabilityPaths), ...(caseFileJourneysOnPostgres ? caseFileJourneys : [])].map((file) =>
        inTest(file.replace(/\./g, '\\.')),
      ),
      inTest('faults/'),
    ],
  },
  faults: [inTest('faults/**/*.test.ts')],
  testRoot,
};
