/**
 * Suites that run journeys share the run's Temporal namespace and case file (test/setup), and the
 * simulator's ids follow from its seed: two suites with one `simulatorSeed` create the same case,
 * person and request ids, so the second finds `case/<id>` started already (REJECT_DUPLICATE) and the
 * case file mixes both suites' rows for that case. Each suite that starts a stack seeds it with a
 * number of its own, among the suites of `npm test` and `npm run test:e2e` together (a suite moves
 * between them) and among those of `npm run test:faults` (each run has its own dev server and case
 * file).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const testRoot = path.join(__dirname, '..');
const NOT_FAULTS = 'npm test and npm run test:e2e';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The literal `simulatorSeed: <n>` values of each suite, by run (a seed read at run time is not counted). */
function seedsByRun(): Map<string, Map<number, string[]>> {
  const runs = new Map<string, Map<number, string[]>>();
  for (const file of testFiles(testRoot)) {
    const relative = path.relative(testRoot, file);
    const run = relative.startsWith(`faults${path.sep}`) ? 'npm run test:faults' : NOT_FAULTS;
    const seeds = runs.get(run) ?? new Map<number, string[]>();
    runs.set(run, seeds);
    for (const match of readFileSync(file, 'utf8').matchAll(/simulatorSeed:\s*(\d+)/g)) {
      const seed = Number(match[1]);
      const users = seeds.get(seed) ?? [];
      if (!users.includes(relative)) users.push(relative);
      seeds.set(seed, users);
    }
  }
  return runs;
}

test('no two suites of one run seed their simulators alike', () => {
  const runs = seedsByRun();
  expect([...runs.get(NOT_FAULTS)!.keys()].length).toBeGreaterThan(10);
  const shared = [...runs].flatMap(([run, seeds]) =>
    [...seeds]
      .filter(([, files]) => files.length > 1)
      .map(([seed, files]) => `${run}: simulatorSeed ${seed} in ${files.join(' and ')}`),
  );
  expect(shared).toEqual([]);
});
