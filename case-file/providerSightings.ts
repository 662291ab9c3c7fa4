/**
 * Resources the provider announced by webhook while no step waited for them, with the case the
 * provider says each belongs to (workflows/resourceSighting.ts records them): where a step whose
 * creating call's answer was lost finds what the provider made. Migration 008.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';
import { purchaseKindSchema, type PurchaseKind } from './purchaseLedger';

export const sightingSchema = z.object({
  kind: purchaseKindSchema,
  provider_id: z.string().min(1),
  case_id: z.string().min(1),
  /** A document's file name, which tells two documents of one case apart. */
  file_name: z.string().nullable(),
});
export type Sighting = z.infer<typeof sightingSchema>;

/** Recorded once per resource: the first sighting's time stands. */
export async function recordSightings(client: PoolClient, sightings: Sighting[]): Promise<void> {
  for (const s of sightings)
    await client.query(
      `INSERT INTO provider_sightings (kind, provider_id, case_id, file_name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (kind, provider_id) DO NOTHING`,
      [s.kind, s.provider_id, s.case_id, s.file_name],
    );
}

export interface SightingQuery {
  kind: PurchaseKind;
  caseId: string;
  /** Seen at or after: the intent of the call whose answer was lost. */
  since: Date;
  fileName?: string;
}

/** Resources of the case seen since the intent that no purchase (of any case) holds. */
export async function unclaimedSightings(client: PoolClient, query: SightingQuery): Promise<string[]> {
  const { rows } = await client.query<{ provider_id: string }>(
    `SELECT s.provider_id FROM provider_sightings s
     WHERE s.kind = $1 AND lower(s.case_id) = lower($2) AND s.seen_at >= $3
       AND ($4::text IS NULL OR s.file_name = $4)
       AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.kind = s.kind AND p.provider_id = s.provider_id)
     ORDER BY s.seen_at, s.provider_id`,
    [query.kind, query.caseId, query.since, query.fileName ?? null],
  );
  return rows.map((r) => r.provider_id);
}
