/**
 * A case's steps in the order the journey plans them (workflows/journeyPlan.ts: credit report,
 * each person's identity verification, banking, documents, income and employer, affordability),
 * which is the order of the journey's own `status`. The read model keeps steps in a jsonb column,
 * and jsonb keeps an object's keys sorted by length, so read back as stored every reader (`journey
 * status`, the API, the console) would list banking before the credit report.
 *
 * The kinds are those of client/journeyNames.ts, in its order: the case file sits below client and
 * cannot import it, so test/unit/journeyNames.test.ts holds this list to that table.
 */
const PLAN_ORDER = [
  'credit-report',
  'identity-verification',
  'banking',
  'documents',
  'income-employer',
  'affordability',
];

/** Where a step key sits in the plan: its kind's place; a kind the plan does not know comes last. */
function rank(key: string): number {
  const kind = key.split('/')[0] as string;
  const at = PLAN_ORDER.indexOf(kind);
  return at < 0 ? PLAN_ORDER.length : at;
}

/** The same steps, keyed in plan order; the people's identity verifications by key (jsonb keeps no other order). */
export function inPlanOrder<T>(steps: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(steps).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)),
  );
}
