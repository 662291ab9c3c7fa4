/** All activities, built on one provider client and one Temporal client per worker process. */
import { createBankingActivities } from './bankingActivities';
import { createCreditReportActivities } from './creditReportActivities';
import { createDocumentActivities } from './documentActivities';
import { createIdentityVerificationActivities } from './identityVerificationActivities';
import { createInsightActivities } from './insightActivities';
import { createNotificationActivities } from './notificationActivities';
import type { CaseEventsConfig } from '../case-api/notifications/caseEventsConfig';
import { createPollActivities } from './pollResource';
import type { ProviderClient } from './providerClient';
import { createResourceActivities } from './resourceActivities';
import type { ResourceTarget } from './signalResource';

export interface ActivityDependencies {
  provider: ProviderClient;
  resources: ResourceTarget;
  /** Where journey events go; unset: nowhere (notifyLos does nothing). */
  caseEvents?: CaseEventsConfig;
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
    ...createNotificationActivities(deps.caseEvents ?? { timeoutMs: 10_000 }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
