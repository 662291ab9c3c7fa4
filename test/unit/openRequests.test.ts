/**
 * Which identity verification links a step's next attempt may adopt: each attempt's request unless
 * its need was spent, the request an attempt sent itself when an earlier link settled it, and never
 * a request some attempt found spent.
 */
import { openRequestsOf, type AttemptIds } from '../../client/openRequests';

test("an attempt's request is open until some attempt finds it spent", () => {
  expect(openRequestsOf([{ providerIds: { request_id: 'a' } }])).toEqual(['a']);
  expect(
    openRequestsOf([{ providerIds: { request_id: 'a' } }, { providerIds: { request_id: 'a' }, needSpent: true }]),
  ).toEqual([]);
});

test('the request an attempt sent stays open when an earlier link it held settled it as declined', () => {
  const attempts: AttemptIds[] = [
    { providerIds: { request_id: 'first' } },
    { providerIds: { request_id: 'first', sent_request_id: 'second' }, needSpent: true },
  ];
  expect(openRequestsOf(attempts)).toEqual(['second']);
});

test('links carried from an earlier run count, unless an attempt of this run found them spent', () => {
  const attempts: AttemptIds[] = [
    { providerIds: { request_id: 'carried' }, needSpent: true },
    { providerIds: { request_id: 'new' } },
  ];
  expect(openRequestsOf(attempts, ['carried', 'other'])).toEqual(['other', 'new']);
});
