/** The IdentityVerification.* payloads of spec §6.6, exactly as shown. */
import { path, routes } from '../activities/routes';
import type { Person, StoredIdentityVerification } from './store';

function identityRequest(baseUrl: string, r: StoredIdentityVerification) {
  return {
    request_id: r.request_id,
    identity_request_endpoint: `${baseUrl}${path(routes.listIdentityVerifications, { personId: r.person_id })}`,
    identity_result_endpoint: `${baseUrl}${path(routes.identityVerificationResult, { requestId: r.request_id })}`,
  };
}

function personRef(p: Person) {
  return { first_name: p.first_name, last_name: p.last_name, name: p.name, person_id: p.person_id };
}

export function identityVerificationCompletedData(baseUrl: string, r: StoredIdentityVerification, p: Person) {
  return {
    identity_request: identityRequest(baseUrl, r),
    person: personRef(p),
    status: 'Completed',
    date_completed: r.date_completed,
    verification_status: r.verification_status,
  };
}

export function identityVerificationExpiredData(baseUrl: string, r: StoredIdentityVerification, p: Person) {
  return {
    identity_request: identityRequest(baseUrl, r),
    person: personRef(p),
    status: 'Expired',
    verification_status: 'NotCompleted',
  };
}
