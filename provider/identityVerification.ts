/**
 * Identity verification requests and results (spec §2.4, §4.4, §4.5).
 *
 * The spec shows only `request_id` and `person_id`; every other field here is an assumption
 * recorded in docs/provider-assumptions.md and served the same way by the simulator.
 */
import { z } from 'zod';
import { idvVerificationStatusSchema, isoDateTime } from './eventData';

/** Request states: `Completed` and `Expired` come from §3; `Pending` (not yet done) is assumed. */
export const idvRequestStatusSchema = z.enum(['Pending', 'Completed', 'Expired']);

export const identityVerificationRequestSchema = z.object({
  request_id: z.string().min(1),
  person_id: z.string().min(1),
  status: idvRequestStatusSchema,
  verification_status: idvVerificationStatusSchema.nullable(),
  /** The link the applicant opens to take the check. */
  identity_link: z.string().min(1),
  date_created: isoDateTime,
  date_completed: isoDateTime.nullable(),
});
export type IdentityVerificationRequest = z.infer<typeof identityVerificationRequestSchema>;

export const identityVerificationListSchema = z.array(identityVerificationRequestSchema);

/** GET /v2/identity/<request_id>: the request plus the checks that decided it. */
export const identityVerificationResultSchema = identityVerificationRequestSchema.extend({
  checks: z.array(z.object({ check: z.string(), outcome: z.string() })),
});
export type IdentityVerificationResult = z.infer<typeof identityVerificationResultSchema>;

/** Body of the (assumed) create call: nothing is required beyond the person in the path. */
export const createIdentityVerificationBodySchema = z.object({
  /** Optional caller reference echoed back; a retried create with the same key adopts the first. */
  idempotency_key: z.string().min(1).max(200).optional(),
});
export type CreateIdentityVerificationBody = z.infer<typeof createIdentityVerificationBodySchema>;
