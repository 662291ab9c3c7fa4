/**
 * The order in which Jest's two workers take the test files: the suites that run a minute or more
 * first, so that no worker is left with one of them when the other has nothing more to take. Jest
 * orders by the durations of earlier runs when its cache has them, and a clean clone (CI) has
 * none: there it falls back to file size, which put a 70-second suite last. The rest keep Jest's
 * order. A suite named here that no longer exists is an error, so the list does not go stale
 * unnoticed.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * The suites that take a minute or more, as paths under test/ (from `jest --json` runs: each
 * suite's end time less its start), longest first but where the fault run needs otherwise: which
 * fault suites run side by side matters (the provider outage's failed beside the operator model).
 * `npm test`'s suites take 20 seconds or less each, and its two workers end together.
 */
const longSuites = [
  // JOURNEYS_SUITE=faults. The provider outage's suite times a call budget running out, so it
  // runs first and never beside the operator model, whose replay of every journey run takes the
  // CPU. Beside it: the balancer's suite (most of it an idle 2-minute Temporal outage), or where a
  // run leaves that out (CI runs it beside the end-to-end run), three shorter suites that together
  // outlast it.
  'faults/providerOutage.test.ts',
  'faults/bridgeBehindBalancer.test.ts',
  'faults/bridgeFuzz.test.ts',
  'faults/embeddedCaseFileKilled.test.ts',
  'faults/querySplitsTask.test.ts',
  'faults/operatorModel.test.ts',
  'faults/caseApiContract.test.ts',
  'faults/unroutedBound.test.ts',
  'faults/lookingCostsNothingForAMinute.test.ts',
  // JOURNEYS_SUITE=e2e.
  'workflows/purchaseRecorded.test.ts',
  'workflows/operatorActions.test.ts',
  'workflows/journeyBin.test.ts',
  'workflows/boughtOnce.test.ts',
  'workflows/productionBuild.test.ts',
  'e2e/npmStartStops.test.ts',
];

const testRoot = path.join(__dirname, '..');
for (const suite of longSuites)
  if (!fs.existsSync(path.join(testRoot, suite)))
    throw new Error(
      `test/setup/longSuitesFirst.js names ${suite}, which is not under test/: remove or rename it there`,
    );

const rank = new Map(longSuites.map((suite, index) => [path.join(testRoot, suite), index]));

class LongSuitesFirst extends Sequencer {
  sort(tests) {
    const inJestsOrder = super.sort(tests);
    const long = inJestsOrder.filter((test) => rank.has(test.path));
    long.sort((a, b) => rank.get(a.path) - rank.get(b.path));
    return [...long, ...inJestsOrder.filter((test) => !rank.has(test.path))];
  }
}

module.exports = LongSuitesFirst;
