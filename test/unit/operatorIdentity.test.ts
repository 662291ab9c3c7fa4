/** An operator action's identity, as every front end builds it (client/operatorIdentity.ts). */
import { auditedIdentity, operatorIdentity } from '../../client/operatorIdentity';

test("with the caller's request id, the Update id is <action>/<id> and the action is audited under it", () => {
  const identity = operatorIdentity('ada', { action: 'waive-step', callerRequestId: 'key-1', requestId: 'req_made' });
  expect(identity).toEqual({ actor: 'ada', requestId: 'waive-step/key-1', updateId: 'waive-step/key-1' });
});

test("without one, no Update id: the request's own id, or a new one", () => {
  const made = { actor: 'ada', requestId: 'req_made' };
  expect(operatorIdentity('ada', { action: 'retry-step', requestId: 'req_made' })).toEqual(made);
  // An action that takes no request id (cancel, assign) makes no Update id from one.
  expect(operatorIdentity('ada', { callerRequestId: 'key-1', requestId: 'req_made' })).toEqual(made);
  expect(operatorIdentity('ada')).toEqual({ actor: 'ada', requestId: expect.stringMatching(/^req_[0-9a-f-]{36}$/) });
});

test('a caller that leaves parts out is audited as unknown, under the Update id or a new id', () => {
  const bulk = 'retry-step/bulk-1/case-1';
  expect(auditedIdentity({ updateId: bulk })).toEqual({ actor: 'unknown', requestId: bulk });
  const named = { actor: 'ada', requestId: 'req_made' };
  expect(auditedIdentity({ ...named, updateId: 'u' })).toEqual(named);
  expect(auditedIdentity({}).requestId).toMatch(/^req_/);
});
