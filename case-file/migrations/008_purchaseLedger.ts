/**
 * The purchase ledger (case-file/purchaseLedger.ts): one row per creating call of a need, keyed by
 * its call key (client/purchaseKey.ts), written before the call (the intent) and after it (what the
 * provider made). `UNIQUE (kind, provider_id)`: no two calls, of one case or of two, hold one
 * resource. Ids, states and the creating call's answer only (links, never names), so erasing a
 * case (purge.ts) keeps what was bought for it.
 *
 * `provider_sightings`: resources the provider announced by webhook while no step waited for them
 * (a creating call whose answer was lost), with the case the provider says they belong to; a step
 * whose call's outcome is unknown looks here for what the provider made
 * (case-file/providerSightings.ts).
 */
export const sql = `
CREATE TABLE purchases (
  call_key text PRIMARY KEY,
  case_id text NOT NULL,
  step text NOT NULL,
  need integer NOT NULL,
  call text NOT NULL,
  kind text NOT NULL,
  subject text,
  state text NOT NULL CHECK (state IN ('intended', 'bought', 'unknown')),
  intended_at timestamptz NOT NULL,
  settled_at timestamptz,
  provider_id text,
  answer jsonb,
  fresh boolean NOT NULL DEFAULT false,
  evidence text,
  UNIQUE (kind, provider_id),
  CHECK ((state = 'bought') = (provider_id IS NOT NULL))
);
CREATE INDEX purchases_case ON purchases (case_id, intended_at);
CREATE INDEX purchases_subject ON purchases (kind, subject) WHERE provider_id IS NULL;

CREATE TABLE provider_sightings (
  kind text NOT NULL,
  provider_id text NOT NULL,
  case_id text NOT NULL,
  file_name text,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, provider_id)
);
CREATE INDEX provider_sightings_case ON provider_sightings (case_id, kind, seen_at);
`;
