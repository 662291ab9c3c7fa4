/**
 * Jest's workers take the longest suites first (test/setup/longSuitesFirst.js): in a clean clone,
 * with no durations cached, the end-to-end and fault runs start with them, in the listed order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listedSuites } from '../support/listedSuites';

const listed = (suite: 'e2e' | 'faults', args: string[] = []) => listedSuites({ JOURNEYS_SUITE: suite }, args);

test('the fault run starts with the provider outage beside the balancer outage, the operator model after', async () => {
  const order = await listed('faults');
  expect(order.slice(0, 2)).toEqual(['faults/providerOutage.test.ts', 'faults/bridgeBehindBalancer.test.ts']);
  expect(order.indexOf('faults/operatorModel.test.ts')).toBeGreaterThan(1);
  expect(order).toContain('faults/workerKilled.test.ts');
});

/** The fault suites .ci/run runs beside the end-to-end run (its `idle_faults` pattern). */
function ciIdleFaults(): string {
  const line = readFileSync(path.join(__dirname, '../../.ci/run'), 'utf8').match(/^idle_faults='([^']+)'$/m);
  if (!line) throw new Error(".ci/run sets no idle_faults='<pattern>'");
  return line[1]!;
}

test("CI's fault run leaves out the idle suites .ci/run runs beside the end-to-end run; the provider outage runs beside three shorter suites, then the operator model", async () => {
  const idle = ciIdleFaults();
  expect(await listed('faults', ['--runInBand', idle])).toEqual([
    'faults/bridgeBehindBalancer.test.ts',
    'faults/lookingCostsNothingForAMinute.test.ts',
  ]);
  const order = await listed('faults', ['--testPathIgnorePatterns', '/node_modules/', idle]);
  expect(order.slice(0, 5)).toEqual([
    'faults/providerOutage.test.ts',
    'faults/bridgeFuzz.test.ts',
    'faults/embeddedCaseFileKilled.test.ts',
    'faults/querySplitsTask.test.ts',
    'faults/operatorModel.test.ts',
  ]);
  expect(order).not.toContain('faults/bridgeBehindBalancer.test.ts');
  expect(order).not.toContain('faults/lookingCostsNothingForAMinute.test.ts');
  expect(order).toContain('faults/workerKilled.test.ts');
});

test('the end-to-end run starts with its longest suites, and takes every other one after them', async () => {
  const order = await listed('e2e');
  expect(order.slice(0, 2)).toEqual(['workflows/purchaseRecorded.test.ts', 'workflows/operatorActions.test.ts']);
  expect(order.indexOf('e2e/npmStartStops.test.ts')).toBe(5);
  expect(new Set(order).size).toBe(order.length);
  expect(order).toContain('e2e/bridgeIsolation.test.ts');
});
