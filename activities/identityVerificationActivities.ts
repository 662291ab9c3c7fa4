/** Identity verification activities (spec §4.4, §4.5; creation assumed, see routes). */
import {
  identityVerificationListSchema,
  identityVerificationRequestSchema,
  identityVerificationResultSchema,
  type IdentityVerificationRequest,
  type IdentityVerificationResult,
  type IdvVerificationStatus,
} from '../provider';
import type { CaseFileStore } from '../case-file/store';
import type { IdentityVerificationSummary } from '../case-file/summaries';
import { idempotencyKeyFor } from './activityCall';
import { caseFileAttempt, caseFileRef } from './caseFileAttempt';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { identityVerificationListQuery, routes } from './routes';

export interface CreateIdentityVerificationInput {
  personId: string;
  /** The purchase's key (client/purchaseKey.ts), when the workflow gives one. */
  idempotencyKey?: string;
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
  /** The case, when the workflow passes it. */
  caseId?: string;
}

/** The verdict as the history keeps it, with the provider's `date_completed` (absent in older histories). */
export type IdentityVerificationRead = IdentityVerificationSummary & { date_completed?: string | null };

export function createIdentityVerificationActivities(client: ProviderClient, caseFile: CaseFileStore) {
  return {
    async createIdentityVerificationRequest(
      input: CreateIdentityVerificationInput,
    ): Promise<IdentityVerificationRequest> {
      return client.call({
        route: routes.createIdentityVerification,
        params: { personId: input.personId },
        body: {},
        schema: identityVerificationRequestSchema,
        // Same key, same request: a retry (of the activity, the attempt or the journey) gets the
        // request the first created.
        idempotencyKey: idempotencyKeyFor(input.idempotencyKey),
      });
    },

    async listIdentityVerificationRequests(
      input: ListIdentityVerificationsInput,
    ): Promise<IdentityVerificationRequest[]> {
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

    /**
     * The result goes to the case file (with its checks); the history gets the verdict, and when
     * the check was completed, which the evidence's validity window is measured from.
     */
    async getIdentityVerificationResult(input: GetIdentityVerificationResultInput): Promise<IdentityVerificationRead> {
      const result = await readResult(input);
      const at = caseFileAttempt(input.caseId);
      await caseFile.writeIdentityVerificationResult(at, result);
      const { request_id, person_id, status, verification_status, checks, date_completed } = result;
      return {
        case_file: caseFileRef(at, 'idv_result', request_id),
        request_id,
        person_id,
        status,
        verification_status,
        checks: checks.length,
        date_completed,
      };
    },
  };

  async function readResult({
    link,
    requestId,
  }: GetIdentityVerificationResultInput): Promise<IdentityVerificationResult> {
    if (link) return readAfterEvent(() => client.follow({ link, schema: identityVerificationResultSchema }));
    if (!requestId) throw new TypeError('getIdentityVerificationResult needs a link or a requestId');
    return readAfterEvent(() =>
      client.call({
        route: routes.identityVerificationResult,
        params: { requestId },
        schema: identityVerificationResultSchema,
      }),
    );
  }
}

export type IdentityVerificationActivities = ReturnType<typeof createIdentityVerificationActivities>;
