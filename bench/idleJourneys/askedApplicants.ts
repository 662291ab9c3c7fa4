/**
 * Which applicants a journey has asked, read from the in-process simulator's own records (an IDV
 * request for the person, a bank connection for the case) rather than by querying 5,000 journeys:
 * one pass over two maps, no load on the worker.
 */
import type { SimulatorStore } from '../../simulator/store';
import type { Applicant } from '../../test/support/faultHarness/faultJourneys';

export interface AskedIds {
  requestId: string;
  connectionId?: string;
}

export function askedApplicants(
  store: SimulatorStore,
  applicants: readonly Applicant[],
  banking: boolean,
): Map<string, AskedIds> {
  const requestByPerson = new Map<string, string>();
  for (const request of store.identityVerifications.values())
    requestByPerson.set(request.person_id, request.request_id);
  const connectionByCase = new Map<string, string>();
  for (const connection of store.openBankingConnections.values())
    connectionByCase.set(connection.entity_id, connection.bank_connection_id);
  const asked = new Map<string, AskedIds>();
  for (const a of applicants) {
    const requestId = requestByPerson.get(a.personId);
    const connectionId = connectionByCase.get(a.caseId);
    if (requestId === undefined || (banking && connectionId === undefined)) continue;
    asked.set(a.caseId, { requestId, connectionId });
  }
  return asked;
}
