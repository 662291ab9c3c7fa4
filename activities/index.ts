/** All activities, built on one provider client and one Temporal client per worker process. */
import { createBankingActivities } from './bankingActivities';
import { createCreditReportActivities } from './creditReportActivities';
import { createDocumentActivities } from './documentActivities';
import { createIdentityVerificationActivities } from './identityVerificationActivities';
import { createInsightActivities } from './insightActivities';
import { createPollActivities } from './pollResource';
import type { ProviderClient } from './providerClient';
import { createResourceActivities } from './resourceActivities';
import type { ResourceTarget } from './signalResource';

export interface ActivityDependencies {
  provider: ProviderClient;
  resources: ResourceTarget;
}

export function createActivities(deps: ActivityDependencies) {
  return {
    ...createIdentityVerificationActivities(deps.provider),
    ...createCreditReportActivities(deps.provider),
    ...createDocumentActivities(deps.provider),
    ...createBankingActivities(deps.provider),
    ...createInsightActivities(deps.provider),
    ...createPollActivities(deps.provider),
    ...createResourceActivities(deps.resources),
  };
}

export type Activities = ReturnType<typeof createActivities>;
