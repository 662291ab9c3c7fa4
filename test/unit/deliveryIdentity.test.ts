/**
 * The dedupe identity must not change between releases: a delivery that arrives after a deploy
 * (a redelivery through a second webhook, a spool drained late) is recognised only if the new code
 * computes the identity the old code stored in the resource's log.
 */
import { createHash } from 'node:crypto';
import type { ResourceDelivery } from '../../client/resourceMessages';
import { deliveryIdentity } from '../../webhook-bridge/deliveryIdentity';
import { readHistories } from '../replay/historyFiles';

const data = { identity_request: { request_id: 'r-1' }, verification_status: 'Approved' };

test('batch id, event type and the SHA-256 of the data as JSON, Base64url', () => {
  const expected = createHash('sha256').update(JSON.stringify(data)).digest('base64url');
  expect(deliveryIdentity('b-1', 'IdentityVerification.Completed', data)).toBe(
    `b-1|IdentityVerification.Completed|${expected}`,
  );
  expect(deliveryIdentity(null, 'IdentityVerification.Completed', data)).toBe(
    `no-batch|IdentityVerification.Completed|${expected}`,
  );
});

test('every identity the bridge stored in the recorded journeys is computed again from its delivery', () => {
  const delivered: ResourceDelivery[] = [];
  for (const { scenario, history } of readHistories()) {
    if (!scenario.startsWith('journey-')) continue;
    for (const event of history.events ?? []) {
      const signal = event.workflowExecutionSignaledEventAttributes;
      if (signal?.signalName !== 'deliver') continue;
      delivered.push(JSON.parse(Buffer.from(signal.input!.payloads![0]!.data!).toString('utf8')) as ResourceDelivery);
    }
  }
  // Deliveries routed by the bridge (polled events carry an identity of their own making).
  const bridged = delivered.filter((d) => d.parse === 'known' && d.webhookId !== '');
  expect(bridged.length).toBeGreaterThan(10);
  for (const d of bridged) expect(deliveryIdentity(d.batchId, d.eventType, d.data)).toBe(d.dedupeId);
});

test('the parent and child deliveries of one occurrence stay distinct; the same delivery twice is one', () => {
  expect(deliveryIdentity('b', 'BankingProcessing.Completed', data)).not.toBe(
    deliveryIdentity('b', 'OpenBankingProcessing.Completed', data),
  );
  expect(deliveryIdentity('b', 'BankingProcessing.Completed', { ...data })).toBe(
    deliveryIdentity('b', 'BankingProcessing.Completed', data),
  );
});
