/**
 * Finding what a creating call whose answer was lost made, by the means the spec gives
 * (activities/purchaseGuard.ts calls these):
 *
 * - IDV: the person's list (§4.4). A request created since the intent that no purchase of any case
 *   holds is this call's, when it is the only one and no other call for the person waits for its
 *   outcome; a list with none, some time after the intent, shows that nothing was made.
 * - Open banking, documents and both insights: the webhook that names the case (§6.6: `entity_id`
 *   of banking and income-and-employer events; an affordability insight's and a document's record
 *   read through the event's link), recorded as a sighting when no step waited for it
 *   (workflows/resourceSighting.ts).
 * - A credit report: nothing (no list, no webhook). A picklist resolution: the report, read by
 *   the id the case holds.
 */
import type { IdentityVerificationRequest, InsightRequestAccepted, OpenBankingConnectionRequest } from '../provider';
import type { CaseFileStore } from '../case-file/store';
import type { Purchase, PurchaseKind } from '../case-file/purchaseLedger';
import type { Search } from './purchaseGuard';

/** Provider and worker clocks may differ a little: a request dated this much before the intent still counts. */
const CLOCK_SKEW_MS = 60_000;
/**
 * The list is read this long after the intent before "none" means "nothing was made": a call that
 * timed out may still be being carried out by the provider.
 */
export const NOTHING_MADE_AFTER_MS = 15_000;

const ids = (list: string[]) => (list.length > 0 ? list.join(', ') : 'none');

export function createPurchaseFinders(caseFile: CaseFileStore) {
  return {
    async identityVerification(
      intent: Purchase,
      list: () => Promise<IdentityVerificationRequest[]>,
    ): Promise<Search<IdentityVerificationRequest>> {
      const since = intent.intended_at.getTime();
      const created = (await list()).filter((r) => Date.parse(r.date_created) >= since - CLOCK_SKEW_MS);
      const held = await caseFile.heldProviderIds(
        'idv',
        created.map((r) => r.request_id),
      );
      const candidates = created.filter((r) => !held.has(r.request_id));
      const others = await caseFile.otherOpenIntents(intent);
      const [only] = candidates;
      if (only && candidates.length === 1 && others.length === 0) return { found: only };
      const iso = intent.intended_at.toISOString();
      if (candidates.length === 0 && Date.now() - since >= NOTHING_MADE_AFTER_MS)
        return { nothingMade: `the person's list holds no request created since ${iso}` };
      return {
        notFound:
          `the person's list holds ${candidates.length} request(s) created since ${iso} that no case holds ` +
          `(${ids(candidates.map((r) => r.request_id))})` +
          (others.length > 0
            ? `; calls of other needs for the person also wait for their outcome (${ids(others)})`
            : ''),
      };
    },

    /** The one resource of the kind seen for the case since the intent that nobody holds. */
    async sighted(intent: Purchase, kind: PurchaseKind, fileName?: string): Promise<Search<string>> {
      const seen = await caseFile.unclaimedSightings({
        kind,
        caseId: intent.case_id,
        since: intent.intended_at,
        fileName,
      });
      const [only] = seen;
      if (only && seen.length === 1) return { found: only };
      const what = fileName ? `${kind} events for ${fileName}` : `${kind} events`;
      return {
        notFound: `${seen.length} ${what} naming the case since ${intent.intended_at.toISOString()} that no case holds (${ids(seen)})`,
      };
    },
  };
}

export type PurchaseFinders = ReturnType<typeof createPurchaseFinders>;

/** An insight request found by its event: what the creating call would have answered. */
export const acceptedInsight = (requestId: string): InsightRequestAccepted => ({
  request_id: requestId,
  status: 'Pending',
});

/** A connection found by its event: its link, which only the lost answer held, is unknown. */
export const foundConnection = (caseId: string, connectionId: string): OpenBankingConnectionRequest => ({
  bank_connection_id: connectionId,
  entity_type: 'case',
  entity_id: caseId,
  status: 'Pending',
  connection_link: 'unknown: the answer that held it was lost',
});

/** Maps what a search found. */
export async function mapFound<A, B>(search: Search<A>, map: (found: A) => B | Promise<B>): Promise<Search<B>> {
  return 'found' in search ? { found: await map(search.found) } : search;
}
