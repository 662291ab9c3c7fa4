/**
 * The dedupe identity is taken only from what the provider signs (event type, data), never from
 * the unsigned batch header, and must not change between releases: a delivery that arrives after a
 * deploy (a redelivery through a second webhook, a spool drained late) is recognised only if the
 * new code computes the identity the old code stored in the resource's log.
 */
import { createHash } from 'node:crypto';
import type { ResourceDelivery } from '../../client/resourceMessages';
import { parseDelivery } from '../../provider';
import { deliveryIdentity } from '../../webhook-bridge/deliveryIdentity';
import { planDelivery } from '../../webhook-bridge/routeDelivery';
import { readHistories } from '../replay/historyFiles';

const data = { identity_request: { request_id: 'r-1' }, verification_status: 'Approved' };
const envelopeFor = (webhookId: string) => ({
  webhook_id: webhookId,
  webhook_name: 'w',
  datetime_sent: '2026-01-13T10:00:00Z',
  external_ref: null,
  event_type: 'IdentityVerification.Completed',
  data,
});

test('event type and the SHA-256 of the data as JSON, Base64url', () => {
  const expected = createHash('sha256').update(JSON.stringify(data)).digest('base64url');
  expect(deliveryIdentity('IdentityVerification.Completed', data)).toBe(`IdentityVerification.Completed|${expected}`);
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
  // Histories recorded before the batch header left the identity carry it in front of the rest.
  for (const d of bridged) {
    const identity = deliveryIdentity(d.eventType, d.data);
    expect([identity, `${d.batchId}|${identity}`]).toContain(d.dedupeId);
  }
});

test('the batch header takes no part, nor the webhook: one occurrence under any batch id is one identity', () => {
  const identityOf = (body: ReturnType<typeof envelopeFor>, batchId: string | null) =>
    planDelivery(parseDelivery(body), body, { batchId, receivedAt: '2026-01-13T10:00:01Z' }).targets[0]!.delivery
      .dedupeId;
  const first = envelopeFor('6f1c2b1e-3d7a-4c2e-9a57-1b2c3d4e5f60');
  const second = envelopeFor('7f1c2b1e-3d7a-4c2e-9a57-1b2c3d4e5f61');
  const identities = [
    identityOf(first, 'b-1'),
    identityOf(first, 'b-2'),
    identityOf(first, null),
    identityOf(second, 'b-1'),
  ];
  expect(new Set(identities).size).toBe(1);
});

test('the parent and child deliveries of one occurrence stay distinct; the same delivery twice is one', () => {
  expect(deliveryIdentity('BankingProcessing.Completed', data)).not.toBe(
    deliveryIdentity('OpenBankingProcessing.Completed', data),
  );
  expect(deliveryIdentity('BankingProcessing.Completed', { ...data })).toBe(
    deliveryIdentity('BankingProcessing.Completed', data),
  );
});
