/**
 * Holds each journey's final state against the simulator's record. A step completed whose resource
 * the provider never settled is a contradiction; so is a step not completed whose outcome the
 * journey could have had: IDV and insights can be polled, so a settled one must be completed.
 * Banking cannot be polled: a connection whose webhook never arrived may expire (counted as lost),
 * but one whose event its resource workflow holds must have completed the step.
 */
import type { SimulatorStore } from '../../simulator/store';
import type { ResourceState } from '../../client/resourceMessages';
import type { JourneyStatus } from '../../client/journeyMessages';

export interface AuditedJourney {
  caseId: string;
  personId: string;
  status: JourneyStatus;
}

export interface AuditResult {
  contradictions: string[];
  /** Banking steps that expired because every delivery of their connection's outcome was lost. */
  bankingLostUnrecoverable: number;
}

export function auditJourneys(
  journeys: AuditedJourney[],
  store: SimulatorStore,
  resources: Map<string, ResourceState>,
): AuditResult {
  const contradictions: string[] = [];
  let bankingLostUnrecoverable = 0;
  for (const j of journeys) {
    const idv = j.status.steps[`identity-verification/${j.personId}`];
    const record = idv?.providerIds.request_id
      ? store.identityVerifications.get(idv.providerIds.request_id)
      : undefined;
    const idvSettled = record !== undefined && record.status !== 'Pending';
    if ((idv?.state === 'completed') !== idvSettled)
      contradictions.push(`${j.caseId}: IDV step ${idv?.state}, provider ${record?.status ?? 'no record'}`);

    const insight = j.status.steps['income-employer'];
    const insightRecord = [...store.incomeEmployer.values()].find((r) => r.entity_id === j.caseId);
    const insightSettled = insightRecord !== undefined && insightRecord.status !== 'Pending';
    if ((insight?.state === 'completed') !== insightSettled)
      contradictions.push(
        `${j.caseId}: income-employer step ${insight?.state}, provider ${insightRecord?.status ?? 'no record'}`,
      );

    const banking = j.status.steps.banking;
    const connection = banking?.providerIds.bank_connection_id
      ? store.openBankingConnections.get(banking.providerIds.bank_connection_id)
      : undefined;
    const connected = connection?.status === 'Connected';
    const held =
      resources
        .get(`case-banking/${j.caseId}`)
        ?.events.some((e) => e.eventType === 'OpenBankingProcessing.Completed') ?? false;
    if (banking?.state === 'completed' && !connected)
      contradictions.push(`${j.caseId}: banking completed, connection ${connection?.status ?? 'unknown'}`);
    else if (banking?.state !== 'completed' && connected && held)
      contradictions.push(`${j.caseId}: banking ${banking?.state} although its resource holds the outcome`);
    else if (banking?.state !== 'completed' && connected) bankingLostUnrecoverable++;
  }
  return { contradictions, bankingLostUnrecoverable };
}
