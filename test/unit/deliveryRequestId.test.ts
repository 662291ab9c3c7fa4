import { deliveryRequestId } from '../../activities/deliveryRequestId';

test('one delivery to one resource workflow has one request id, shaped as a UUID', () => {
  const id = deliveryRequestId('resource/idv/r-1', 'IdentityVerification.Completed|abc');
  expect(id).toBe(deliveryRequestId('resource/idv/r-1', 'IdentityVerification.Completed|abc'));
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
});

test('another delivery, or the same delivery to another resource workflow, has another', () => {
  const id = deliveryRequestId('resource/idv/r-1', 'IdentityVerification.Completed|abc');
  expect(deliveryRequestId('resource/idv/r-1', 'IdentityVerification.Completed|abd')).not.toBe(id);
  expect(deliveryRequestId('resource/idv/r-2', 'IdentityVerification.Completed|abc')).not.toBe(id);
  // The separator keeps the two parts apart: moving a character across it changes the id.
  expect(deliveryRequestId('resource/idv/r-1I', 'dentityVerification.Completed|abc')).not.toBe(id);
});
