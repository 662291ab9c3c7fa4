/**
 * An operator's request id (the case API's `Idempotency-Key` header, the CLI's `--request-id`)
 * becomes the id of the Update it sends. Temporal answers a second Update with the id of one it
 * already took on the same run with the first one's result, so a client that repeats a request
 * (a timed-out HTTP call, a re-run command) never acts twice.
 *
 * Every operator action is audited under a request id: that Update id when the caller
 * gave a request id, else one made for the request (`req_<uuid>`), which the API answers in its
 * `Request-Id` header and the CLI prints, so a caller can find its action in the audit trail.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OperatorActionName } from './journeyNames';

/** The operator actions that take a request id (journeyNames.ts); each has its own namespace of Update ids. */
export type OperatorAction = OperatorActionName;

/** 1 to 200 printable ASCII characters (space to tilde), what an HTTP header carries unchanged. */
export const operatorRequestIdSchema = z
  .string()
  .regex(/^[\x20-\x7e]{1,200}$/, 'must be 1 to 200 printable ASCII characters')
  .meta({
    description:
      'Repeating a request with the same id answers the first result instead of ' +
      'acting again (1 to 200 printable ASCII characters)',
  });

/**
 * The Update id of an action with a request id: `<action>/<requestId>`, so the same id used for a
 * retry and for a waiver of one case cannot answer one with the other's result.
 */
export function operatorUpdateId(action: OperatorAction, requestId: string): string {
  return `${action}/${requestId}`;
}

/** A request id for a request that brought none. */
export const newRequestId = (): string => `req_${randomUUID()}`;
