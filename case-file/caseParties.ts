/**
 * Who a case is about, by name: the company and the applicants as the client that started the case
 * gave them. The read model's lists search these names; histories never carry them.
 */
import type { PoolClient } from 'pg';
import { z } from 'zod';

export const casePartySchema = z.object({
  role: z.enum(['company', 'applicant']),
  partyId: z.string().min(1),
  name: z.string().min(1).max(300).nullable(),
});
export type CaseParty = z.infer<typeof casePartySchema>;

/** Idempotent: a party given again keeps its name unless a new one is given. */
export async function recordCaseParties(
  client: PoolClient,
  caseId: string,
  parties: readonly CaseParty[],
): Promise<void> {
  for (const party of parties) {
    await client.query(
      `INSERT INTO case_parties (case_id, role, party_id, name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (case_id, role, party_id) DO UPDATE SET name = COALESCE(EXCLUDED.name, case_parties.name)`,
      [caseId, party.role, party.partyId, party.name],
    );
  }
}
