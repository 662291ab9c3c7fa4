/**
 * Which suites a run takes (test/setup/testRuns.js): CI's end-to-end run on PostgreSQL leaves the
 * case API's contract and the 12-second cost of looking out (E2E_LEAVE_OUT) and takes the case
 * file store's tests and the journey through every step in (E2E_ALSO); a name that is not a suite
 * of the right run is refused, naming it.
 */
import { listedSuites } from '../support/listedSuites';

const listed = (env: Record<string, string>) => listedSuites({ JOURNEYS_SUITE: 'e2e', ...env });

test("CI's end-to-end run: the contract and looking left out, the case file store and the whole journey taken in", async () => {
  const plain = await listed({});
  const ci = await listed({
    E2E_LEAVE_OUT: 'api/caseApiContract.test.ts,api/lookingCostsNothing.test.ts',
    E2E_ALSO: 'case-file,workflows/onboardCase.test.ts',
  });
  expect(plain).toContain('api/caseApiContract.test.ts');
  expect(plain).toContain('api/lookingCostsNothing.test.ts');
  expect(plain.some((file) => file.startsWith('case-file/'))).toBe(false);
  expect(ci).not.toContain('api/caseApiContract.test.ts');
  expect(ci).not.toContain('api/lookingCostsNothing.test.ts');
  expect(ci).toContain('workflows/onboardCase.test.ts');
  expect(ci).toContain('case-file/store.test.ts');
  expect(
    ci.filter((file) => !plain.includes(file)).every((f) => f.startsWith('case-file/') || f.includes('onboardCase')),
  ).toBe(true);
  expect(ci.some((file) => file.startsWith('unit/'))).toBe(false);
});

test('a name that is not a suite npm test runs is refused, naming it and what would do', async () => {
  await expect(listed({ E2E_ALSO: 'e2e/bridgeIsolation.test.ts' })).rejects.toThrow(
    /E2E_ALSO names e2e\/bridgeIsolation\.test\.ts, which npm test does not run: expected one of its folders \(unit, logic, case-file/,
  );
  await expect(listed({ E2E_LEAVE_OUT: 'api/noSuchSuite.test.ts' })).rejects.toThrow(
    /E2E_LEAVE_OUT names api\/noSuchSuite\.test\.ts: expected a path under test\//,
  );
});
