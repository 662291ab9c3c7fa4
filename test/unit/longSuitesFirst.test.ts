/**
 * Jest's workers take the longest suites first (test/setup/longSuitesFirst.js): in a clean clone,
 * with no durations cached, the end-to-end and fault runs start with them, in the listed order.
 */
import { listedSuites } from '../support/listedSuites';

const listed = (suite: 'e2e' | 'faults', args: string[] = []) => listedSuites({ JOURNEYS_SUITE: suite }, args);

test('the fault run starts with the provider outage beside the balancer outage, the operator model after', async () => {
  const order = await listed('faults');
  expect(order.slice(0, 2)).toEqual(['faults/providerOutage.test.ts', 'faults/bridgeBehindBalancer.test.ts']);
  expect(order.indexOf('faults/operatorModel.test.ts')).toBeGreaterThan(1);
  expect(order).toContain('faults/workerKilled.test.ts');
});

test("CI's fault run, the balancer's suite left out as .ci/run leaves it: the provider outage beside three shorter suites, then the operator model", async () => {
  const order = await listed('faults', [
    '--testPathIgnorePatterns',
    '/node_modules/',
    'test/faults/bridgeBehindBalancer.test.ts$',
  ]);
  expect(order.slice(0, 5)).toEqual([
    'faults/providerOutage.test.ts',
    'faults/bridgeFuzz.test.ts',
    'faults/embeddedCaseFileKilled.test.ts',
    'faults/querySplitsTask.test.ts',
    'faults/operatorModel.test.ts',
  ]);
  expect(order).not.toContain('faults/bridgeBehindBalancer.test.ts');
  expect(order).toContain('faults/workerKilled.test.ts');
});

test('the end-to-end run starts with its longest suites, and takes every other one after them', async () => {
  const order = await listed('e2e');
  expect(order.slice(0, 2)).toEqual(['workflows/purchaseRecorded.test.ts', 'workflows/operatorActions.test.ts']);
  expect(order.indexOf('e2e/npmStartStops.test.ts')).toBe(5);
  expect(new Set(order).size).toBe(order.length);
  expect(order).toContain('e2e/bridgeIsolation.test.ts');
});
