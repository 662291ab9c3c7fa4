/** Deliveries as the provider sends them (spec §6.2, §6.6), built and signed by tests themselves. */
import { createHmac, randomUUID } from 'node:crypto';

export const sign = (raw: string, secret: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(raw, 'utf8')).digest('base64');

export function envelope(
  eventType: string,
  data: Record<string, unknown>,
  webhookId = '6f1c2b1e-3d7a-4c2e-9a57-1b2c3d4e5f60',
): string {
  return JSON.stringify({
    webhook_id: webhookId,
    webhook_name: 'test',
    datetime_sent: new Date().toISOString(),
    external_ref: null,
    event_type: eventType,
    data,
  });
}

export function idvCompleted(requestId: string = randomUUID()): Record<string, unknown> {
  return {
    identity_request: {
      request_id: requestId,
      identity_request_endpoint: '/v2/persons/p-1/identity-verifications',
      identity_result_endpoint: `/v2/identity/${requestId}`,
    },
    person: { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', person_id: 'p-1' },
    status: 'Completed',
    date_completed: new Date().toISOString(),
    verification_status: 'Approved',
  };
}

export function payslipOccurrence(documentId: string = randomUUID()) {
  const document = {
    document_id: documentId,
    document_endpoint: `/v2/documents/${documentId}`,
    file_name: 'march.pdf',
  };
  return {
    documentId,
    child: { status: 'Complete', message: null, document },
    parent: { status: 'Complete', message: null, document_type: 'Payslip', document },
  };
}

export async function post(url: string, raw: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
}
