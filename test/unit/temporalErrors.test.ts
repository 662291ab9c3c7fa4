/** The case API's answers for what Temporal throws: each a documented status, never a bare 500 for a busy server. */
import { Metadata } from '@grpc/grpc-js';
import {
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { JourneyClosedError, RequestIdReusedError } from '../../client/journeyErrors';
import { toHttpError } from '../../case-api/temporalErrors';

test('an Update whose answer did not come in time is 503, to be tried again', () => {
  const error = toHttpError(
    new WorkflowUpdateRPCTimeoutOrCancelledError('Timed out waiting for update response'),
    'c1',
  );
  expect({ status: error.status, code: error.code }).toEqual({ status: 503, code: 'temporal_unavailable' });
});

test('an unknown journey is 404 naming the case; anything unexpected is 500', () => {
  expect(toHttpError(new WorkflowNotFoundError('gone', 'case/c1', undefined), 'c1')).toMatchObject({
    status: 404,
    message: 'No case c1',
  });
  expect(toHttpError(new Error('boom'), 'c1')).toMatchObject({ status: 500, code: 'internal' });
});

/** What the client throws for a failed Update RPC: a ServiceError whose cause is the gRPC error. */
const wrapped = (code: number) =>
  Object.assign(
    new ServiceError('Workflow Update failed', {
      cause: Object.assign(new Error('rpc'), { code, details: '', metadata: new Metadata() }),
    }),
  );

test('an Update Temporal could not hand over just now (FAILED_PRECONDITION, wrapped by the client) is 503, not 500', () => {
  expect(toHttpError(wrapped(9), 'c1')).toMatchObject({ status: 503, code: 'journey_not_ready' });
  expect(toHttpError(wrapped(8), 'c1')).toMatchObject({ status: 503, code: 'temporal_unavailable' });
  expect(toHttpError(wrapped(5), 'c1')).toMatchObject({ status: 404 });
});

test('an unexpected error is 500 with its class and gRPC code for the log, none of its words for the caller', () => {
  const error = toHttpError(wrapped(13), 'c1');
  expect(error).toMatchObject({
    status: 500,
    message: 'The request failed unexpectedly',
    logDetail: 'ServiceError (gRPC 13)',
  });
});

test("an action the journey refuses in its state is 409 with the journey's words; a key reused for another step stays 422", () => {
  const refused = new WorkflowUpdateFailedError(
    'Workflow Update failed',
    new Error('banking is completed; a step can be retried when it is failed'),
  );
  expect(toHttpError(refused, 'c1')).toMatchObject({
    status: 409,
    code: 'action_refused',
    message: 'banking is completed; a step can be retried when it is failed',
  });
  expect(toHttpError(new JourneyClosedError('c1', 'COMPLETED'), 'c1')).toMatchObject({
    status: 409,
    code: 'case_closed',
  });
  expect(toHttpError(new RequestIdReusedError('k1', 'banking', 'income-employer'), 'c1')).toMatchObject({
    status: 422,
    code: 'idempotency_key_reused',
  });
});
