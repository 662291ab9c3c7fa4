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
 * Paths under test/ (files or folders, comma-separated) that an environment variable names; a path
 * that does not exist is an error naming it.
 */
function pathsIn(variable, example) {
  const paths = (process.env[variable] ?? '')
    .split(',')
    .map((file) => file.trim().replace(/\/$/, ''))
    .filter((file) => file !== '');
  for (const file of paths)
    if (!fs.existsSync(path.join(testRoot, file)))
      throw new Error(`${variable} names ${file}: expected a path under test/, such as ${example}`);
  return paths;
}

/**
 * End-to-end suites a run leaves out (E2E_LEAVE_OUT): CI leaves out the case API's contract and the
 * 12-second cost of looking, which its fault run covers at a larger size and for a full minute.
 */
const leftOut = pathsIn('E2E_LEAVE_OUT', 'api/caseApiContract.test.ts');
/**
 * Suites of `npm test` that an end-to-end run takes too (E2E_ALSO: a fast folder or a capability
 * path): CI runs the case file store's tests and a journey through every step on PostgreSQL within
 * its end-to-end run there, sharing its start-up and its two workers.
 */
const also = pathsIn('E2E_ALSO', 'case-file');
for (const file of also)
  if (!fastFolders.includes(file) && !Object.values(capabilityPaths).includes(file))
    throw new Error(
      `E2E_ALSO names ${file}, which npm test does not run: expected one of its folders ` +
        `(${fastFolders.join(', ')}) or capability paths (${Object.values(capabilityPaths).join(', ')})`,
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
      ...fastFolders.filter((folder) => !also.includes(folder)).map((folder) => inTest(`${folder}/`)),
      ...[...Object.values(capabilityPaths).filter((file) => !also.includes(file)), ...leftOut].map((file) =>
        inTest(file.replace(/\./g, '\\.')),
      ),
      inTest('faults/'),
    ],
  },
  faults: [inTest('faults/**/*.test.ts')],
  testRoot,
};
