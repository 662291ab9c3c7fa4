/**
 * The purchase ledger: what the journey buys from the provider, one row per creating call of a
 * need (client/purchaseKey.ts `callKey`: `case/<caseId>/<step>/<need>/<call>`). The activity
 * records the intent before the call and the provider's id after it; a row whose intent has no id
 * is a call whose outcome is unknown, which is never simply sent again
 * (activities/purchaseGuard.ts). Migration 008.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';
import type { FieldCipher } from './fieldCipher';
import { openRow, sealJson } from './sealedRows';

export const purchaseKinds = [
  'credit-report',
  'picklist-resolution',
  'idv',
  'open-banking',
  'document',
  'affordability',
  'income-employer',
] as const;
export const purchaseKindSchema = z.enum(purchaseKinds);
export type PurchaseKind = z.infer<typeof purchaseKindSchema>;

export const purchaseStateSchema = z.enum(['intended', 'bought', 'unknown']);
export type PurchaseState = z.infer<typeof purchaseStateSchema>;

/** `case/<caseId>/<step…>/<need>/<call>`; the step may itself hold a slash (`identity-verification/<person>`). */
const callKeySchema = z
  .string()
  .regex(/^case\/[^/]+\/.+\/\d+\/[^/]+$/, 'a call key is case/<caseId>/<step>/<need>/<call>')
  .transform((key) => {
    const parts = key.split('/');
    return {
      callKey: key,
      caseId: parts[1] as string,
      step: parts.slice(2, -2).join('/'),
      need: Number(parts.at(-2)),
      call: parts.at(-1) as string,
    };
  });
export type ParsedCallKey = z.output<typeof callKeySchema>;

/** The parts of a call key, or undefined for a key that names no need (a step run alone). */
export function parseCallKey(key: string): ParsedCallKey | undefined {
  const parsed = callKeySchema.safeParse(key);
  return parsed.success ? parsed.data : undefined;
}

export const purchaseSchema = z.object({
  call_key: z.string(),
  case_id: z.string(),
  step: z.string(),
  need: z.number().int(),
  call: z.string(),
  kind: purchaseKindSchema,
  /** What a search for a lost answer looks by: the person, the file name, the report. */
  subject: z.string().nullable(),
  state: purchaseStateSchema,
  intended_at: z.date(),
  settled_at: z.date().nullable(),
  provider_id: z.string().nullable(),
  /** The creating call's answer, so that a repeat of the call answers it without calling. */
  answer: z.unknown(),
  /** An operator asked for this need to buy anew (`retryStep --fresh`). */
  fresh: z.boolean(),
  /** Why the outcome is unknown: what the search looked at and found. */
  evidence: z.string().nullable(),
});
export type Purchase = z.infer<typeof purchaseSchema>;

export interface Intent {
  callKey: string;
  kind: PurchaseKind;
  subject: string | null;
  fresh: boolean;
}

/** A row as stored: the answer sealed (`sealed`, migration 011) or, written before, in `answer`. */
const rowOf = (cipher: FieldCipher, row: Record<string, unknown>): Purchase =>
  purchaseSchema.parse(openRow(cipher, row));

export async function readPurchase(
  client: PoolClient,
  cipher: FieldCipher,
  callKey: string,
): Promise<Purchase | undefined> {
  const { rows } = await client.query('SELECT * FROM purchases WHERE call_key = $1', [callKey]);
  return rows[0] ? rowOf(cipher, rows[0]) : undefined;
}

/**
 * Records the intent unless the call key has a row already; answers the row as it stands, and
 * whether this call recorded it (then nothing was sent under the key yet).
 */
export async function recordIntent(
  client: PoolClient,
  cipher: FieldCipher,
  intent: Intent,
): Promise<{ purchase: Purchase; recorded: boolean }> {
  const key = parseCallKey(intent.callKey);
  if (!key) throw new TypeError(`not a call key: ${intent.callKey}`);
  const inserted = await client.query(
    `INSERT INTO purchases (call_key, case_id, step, need, call, kind, subject, state, intended_at, fresh)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'intended', clock_timestamp(), $8)
     ON CONFLICT (call_key) DO NOTHING RETURNING *`,
    [key.callKey, key.caseId, key.step, key.need, key.call, intent.kind, intent.subject, intent.fresh],
  );
  if (inserted.rows[0]) return { purchase: rowOf(cipher, inserted.rows[0]), recorded: true };
  return { purchase: (await readPurchase(client, cipher, intent.callKey)) as Purchase, recorded: false };
}

/**
 * The provider's id and answer. Refused (a unique violation) when another row holds the id: no
 * call, of this case or another, takes a resource a second time. A call that holds another id
 * already keeps it (the step goes on with what it bought first), and this one, a second resource
 * the provider made for one call, is recorded beside it as an extra purchase of the case
 * (`<callKey>+<providerId>`), so that the ledger holds every purchase. Answers the call's row.
 */
export async function recordBought(
  client: PoolClient,
  cipher: FieldCipher,
  callKey: string,
  providerId: string,
  answer: unknown,
): Promise<Purchase> {
  const sealed = sealJson(cipher, { answer: answer ?? null });
  const { rows } = await client.query(
    `UPDATE purchases SET state = 'bought', provider_id = $2, sealed = $3, answer = NULL,
       settled_at = clock_timestamp(), evidence = NULL
     WHERE call_key = $1 AND (provider_id IS NULL OR provider_id = $2) RETURNING *`,
    [callKey, providerId, sealed],
  );
  if (rows[0]) return rowOf(cipher, rows[0]);
  const held = await readPurchase(client, cipher, callKey);
  if (!held) throw new Error(`no purchase recorded under ${callKey}`);
  await client.query(
    `INSERT INTO purchases (call_key, case_id, step, need, call, kind, subject, state, intended_at, settled_at,
       fresh, provider_id, sealed, evidence)
     SELECT call_key || '+' || $2, case_id, step, need, call || '+' || $2, kind, subject, 'bought', intended_at,
       clock_timestamp(), fresh, $2, $3, $4
     FROM purchases WHERE call_key = $1`,
    [callKey, providerId, sealed, `bought again: the call had bought ${held.provider_id} already`],
  );
  return held;
}

/** The search found nothing in its time: the row waits for an operator, with what was looked at. */
export async function recordUnknown(client: PoolClient, callKey: string, evidence: string): Promise<void> {
  await client.query(
    `UPDATE purchases SET state = 'unknown', evidence = $2 WHERE call_key = $1 AND provider_id IS NULL`,
    [callKey, evidence],
  );
}

/**
 * A search showed the provider made nothing: the intent starts again from now, as the call is sent
 * anew. `forget`: the call was refused (nothing made, nothing sent that could still be made), so
 * the row goes, and the next try records its intent and sends the call. Answers false when the
 * row holds an id: the call bought it meanwhile (a concurrent attempt found it or had its answer).
 */
export async function renewIntent(client: PoolClient, callKey: string, forget = false): Promise<boolean> {
  const { rowCount } = await client.query(
    forget
      ? `DELETE FROM purchases WHERE call_key = $1 AND provider_id IS NULL`
      : `UPDATE purchases SET state = 'intended', intended_at = clock_timestamp(), evidence = NULL
         WHERE call_key = $1 AND provider_id IS NULL`,
    [callKey],
  );
  return (rowCount ?? 0) > 0;
}

/** Which of these provider ids of a kind some row (any case's) holds. */
export async function heldProviderIds(client: PoolClient, kind: PurchaseKind, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await client.query<{ provider_id: string }>(
    'SELECT provider_id FROM purchases WHERE kind = $1 AND provider_id = ANY($2::text[])',
    [kind, ids],
  );
  return new Set(rows.map((r) => r.provider_id));
}

/** Other calls of this kind and subject whose outcome is not known yet: a find could take theirs. */
export async function otherOpenIntents(client: PoolClient, purchase: Purchase): Promise<string[]> {
  const { rows } = await client.query<{ call_key: string }>(
    `SELECT call_key FROM purchases
     WHERE kind = $1 AND subject IS NOT DISTINCT FROM $2 AND provider_id IS NULL AND call_key <> $3`,
    [purchase.kind, purchase.subject, purchase.call_key],
  );
  return rows.map((r) => r.call_key);
}

/** Every purchase of a case, oldest intent first. */
export async function casePurchases(client: PoolClient, cipher: FieldCipher, caseId: string): Promise<Purchase[]> {
  const { rows } = await client.query('SELECT * FROM purchases WHERE case_id = $1 ORDER BY intended_at, call_key', [
    caseId,
  ]);
  return rows.map((row: Record<string, unknown>) => rowOf(cipher, row));
}
