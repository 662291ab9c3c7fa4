/** All activities, built on one provider client, one Temporal client and one case file store per worker process. */
import { callInFlightMs } from './purchaseGuard';
import type { CaseFileStore } from '../case-file/store';
import { createBankingActivities } from './bankingActivities';
import { createCaseReadModelActivities } from './caseReadModelActivities';
import { createCreditReportActivities } from './creditReportActivities';
import { createDocumentActivities } from './documentActivities';
import { createIdentityVerificationActivities } from './identityVerificationActivities';
import { createInsightActivities } from './insightActivities';
import { createNotificationActivities } from './notificationActivities';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { createPollActivities } from './pollResource';
import type { ProviderClient } from './providerClient';
import { createResourceActivities } from './resourceActivities';
import { createSightingActivities } from './sightingActivities';
import { createSubscribingActivities } from './subscribingActivities';
import type { ResourceTarget } from './signalResource';

export interface ActivityDependencies {
  provider: ProviderClient;
  resources: ResourceTarget;
  /** Where activities write what they read from the provider. */
  caseFile: CaseFileStore;
  /** Where journey events go; unset: nowhere (notifyLos does nothing). */
  caseEvents?: CaseEventsConfig;
}

export function createActivities(deps: ActivityDependencies) {
  const identityVerification = createIdentityVerificationActivities(deps.provider, deps.caseFile);
  const documents = createDocumentActivities(deps.provider, deps.caseFile);
  const banking = createBankingActivities(deps.provider, deps.caseFile);
  const insights = createInsightActivities(deps.provider, deps.caseFile);
  return {
    ...identityVerification,
    ...createCreditReportActivities(deps.provider, deps.caseFile),
    ...documents,
    ...banking,
    ...insights,
    ...createSubscribingActivities(
      { identityVerification, banking, documents, insights },
      deps.resources,
      deps.caseFile,
      callInFlightMs(deps.provider.config?.requestTimeoutMs),
    ),
    ...createPollActivities(deps.provider),
    ...createResourceActivities(deps.resources),
    ...createSightingActivities(deps.provider, deps.caseFile),
    ...createNotificationActivities(deps.caseEvents ?? { timeoutMs: 10_000 }, deps.caseFile),
    ...createCaseReadModelActivities(deps.caseFile),
  };
}

export type Activities = ReturnType<typeof createActivities>;
