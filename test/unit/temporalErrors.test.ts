/** The case API's answers for what Temporal throws: each a documented status, never a bare 500 for a busy server. */
import { WorkflowNotFoundError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { toHttpError } from '../../case-api/temporalErrors';

test('an Update whose answer did not come in time is 503, to be tried again', () => {
  const error = toHttpError(new WorkflowUpdateRPCTimeoutOrCancelledError('Timed out waiting for update response'), 'c1');
  expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'temporal_unavailable' });
});

test('an unknown journey is 404 naming the case; anything unexpected is 500', () => {
  expect(toHttpError(new WorkflowNotFoundError('gone', 'case/c1', undefined), 'c1')).toMatchObject({ status: 404, message: 'No case c1' });
  expect(toHttpError(new Error('boom'), 'c1')).toMatchObject({ status: 500, code: 'internal' });
});
