/** Identity verification activities (spec §4.4, §4.5; creation assumed, see routes). */
import {
  identityVerificationListSchema,
  identityVerificationRequestSchema,
  identityVerificationResultSchema,
  type IdentityVerificationRequest,
  type IdentityVerificationResult,
  type IdvVerificationStatus,
} from '../provider';
import { activityIdempotencyKey } from './activityCall';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { identityVerificationListQuery, routes } from './routes';

export interface CreateIdentityVerificationInput {
  personId: string;
}

export interface ListIdentityVerificationsInput {
  personId: string;
  excludeIncomplete?: boolean;
  verificationStatuses?: IdvVerificationStatus[];
}

export interface GetIdentityVerificationResultInput {
  /** The `identity_result_endpoint` link of an event, or a request id to build the path from. */
  link?: string;
  requestId?: string;
}

export function createIdentityVerificationActivities(client: ProviderClient) {
  return {
    async createIdentityVerificationRequest(input: CreateIdentityVerificationInput): Promise<IdentityVerificationRequest> {
      return client.call({
        route: routes.createIdentityVerification,
        params: { personId: input.personId },
        body: {},
        schema: identityVerificationRequestSchema,
        // Same key, same request: a retried activity gets the request its first attempt created.
        idempotencyKey: activityIdempotencyKey(),
      });
    },

    async listIdentityVerificationRequests(input: ListIdentityVerificationsInput): Promise<IdentityVerificationRequest[]> {
      return client.call({
        route: routes.listIdentityVerifications,
        params: { personId: input.personId },
        query: {
          [identityVerificationListQuery.excludeIncomplete]: input.excludeIncomplete ? 'true' : undefined,
          [identityVerificationListQuery.verificationStatus]: input.verificationStatuses?.length
            ? input.verificationStatuses.join(',')
            : undefined,
        },
        schema: identityVerificationListSchema,
      });
    },

    async getIdentityVerificationResult(input: GetIdentityVerificationResultInput): Promise<IdentityVerificationResult> {
      const { link, requestId } = input;
      if (link) return readAfterEvent(() => client.follow({ link, schema: identityVerificationResultSchema }));
      if (!requestId) throw new TypeError('getIdentityVerificationResult needs a link or a requestId');
      return readAfterEvent(() => client.call({
        route: routes.identityVerificationResult,
        params: { requestId },
        schema: identityVerificationResultSchema,
      }));
    },
  };
}

export type IdentityVerificationActivities = ReturnType<typeof createIdentityVerificationActivities>;
