import { parseDelivery } from '../../provider';

const idvCompleted = {
  webhook_id: '0b7a2f6e-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
  webhook_name: 'onboarding',
  datetime_sent: '2026-11-21T10:00:00Z',
  external_ref: null,
  event_type: 'IdentityVerification.Completed',
  data: {
    identity_request: {
      request_id: 'req-1',
      identity_request_endpoint: '/v2/persons/p-1/identity-verifications',
      identity_result_endpoint: '/v2/identity/req-1',
    },
    person: { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', person_id: 'p-1' },
    status: 'Completed',
    date_completed: '2026-11-21T09:59:00Z',
    verification_status: 'Approved',
  },
};

describe('parseDelivery', () => {
  test('parses a known event with typed data', () => {
    const result = parseDelivery(idvCompleted);
    expect(result).toMatchObject({
      ok: true,
      delivery: { kind: 'known', eventType: 'IdentityVerification.Completed' },
    });
  });

  test('reads sent_at_utc (the AffordabilityInsights.Completed example) as datetime_sent', () => {
    const { datetime_sent, ...rest } = idvCompleted;
    const result = parseDelivery({
      ...rest,
      sent_at_utc: datetime_sent,
      event_type: 'AffordabilityInsights.Completed',
      data: {
        request_id: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        affordability_insight_endpoint: '/v2/affordability-insights/1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        affordability_insight_transactions_endpoint:
          '/v2/affordability-insights/1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d/transactions',
      },
    });
    expect(result.ok && result.delivery.envelope.datetime_sent).toBe(datetime_sent);
    expect(result.ok && result.delivery.kind).toBe('known');
  });

  test('keeps an event type it does not know instead of rejecting it', () => {
    const result = parseDelivery({ ...idvCompleted, event_type: 'CreditFile.Refreshed', data: { anything: 1 } });
    expect(result).toMatchObject({
      ok: true,
      delivery: { kind: 'unknown-event-type', eventType: 'CreditFile.Refreshed' },
    });
  });

  test('keeps a known event whose data does not match, naming the field', () => {
    const result = parseDelivery({ ...idvCompleted, data: { ...idvCompleted.data, verification_status: 'Maybe' } });
    expect(result).toMatchObject({ ok: true, delivery: { kind: 'invalid-data' } });
    expect(result.ok && result.delivery.kind === 'invalid-data' && result.delivery.problems.join()).toContain(
      'data.verification_status',
    );
  });

  test('rejects an envelope without a send time, naming datetime_sent', () => {
    const { datetime_sent: _, ...rest } = idvCompleted;
    const result = parseDelivery(rest);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.join()).toContain('datetime_sent');
  });

  test('rejects an envelope without webhook_id, naming it', () => {
    const { webhook_id: _, ...rest } = idvCompleted;
    const result = parseDelivery(rest);
    expect(!result.ok && result.problems.join()).toContain('webhook_id');
  });

  test('never throws on input that is not an object', () => {
    for (const body of [null, 42, 'text', [], { data: null }]) expect(parseDelivery(body).ok).toBe(false);
  });
});
