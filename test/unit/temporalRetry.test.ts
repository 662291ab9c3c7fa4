import { ServiceError } from '@temporalio/client';
import { workflowClosing } from '../../client/grpcCode';
import { closingRetryDelaysMs, temporalRetryOptions } from '../../client/temporalRetry';

const closing = {
  code: 8,
  details: 'workflow operation can not be applied because workflow is closing',
  metadata: {} as never,
};
const overloaded = { code: 8, details: 'namespace rate limit exceeded', metadata: {} as never };
const notFound = { code: 5, details: 'workflow execution already completed', metadata: {} as never };

/** The waits before each try after the first, as the interceptor would run them. */
function schedule(status: typeof closing): number[] {
  const options = temporalRetryOptions();
  const delays: number[] = [];
  for (let attempt = 1; options.retryableDecider(attempt, status) && attempt < 20; attempt++)
    delays.push(options.delayFunction(attempt, status));
  return delays;
}

test('"workflow is closing" is tried again soon, a few times, under a second in all (the SDK waits 1.4 s or more before its first retry)', () => {
  expect(schedule(closing)).toEqual([...closingRetryDelaysMs]);
  expect(closingRetryDelaysMs.reduce((a, b) => a + b, 0)).toBeLessThan(1_000);
});

test("every other answer keeps the SDK's policy: an overloaded server is backed off from, not-found is final", () => {
  const overloadedDelays = schedule(overloaded);
  expect(overloadedDelays.length).toBe(9);
  expect(overloadedDelays[0]).toBeGreaterThanOrEqual(1_300);
  expect(schedule(notFound)).toEqual([]);
});

test('a closing refusal is recognised under the ServiceError the client wraps it in, and nothing else is', () => {
  const wrapped = new ServiceError('Failed to signal Workflow', {
    cause: Object.assign(new Error(closing.details), closing),
  });
  expect(workflowClosing(wrapped)).toBe(true);
  expect(
    workflowClosing(
      new ServiceError('Failed to signal Workflow', {
        cause: Object.assign(new Error(overloaded.details), overloaded),
      }),
    ),
  ).toBe(false);
  expect(workflowClosing(new Error('workflow is closing'))).toBe(false);
});
