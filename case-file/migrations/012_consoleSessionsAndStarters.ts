/**
 * Console sessions signed out before they expired, the names of OIDC operators, and who started
 * each case.
 *
 * - `console_revoked_sessions`: the id of each console session signed out, until the session would
 *   have expired anyway (its cookie is refused until then, whichever API process reads it, and after
 *   a restart). Expired rows are deleted when another session is signed out.
 * - `console_operators`: the name shown for an OIDC operator, who is recorded in audits and
 *   assignments by issuer and subject (`<iss>#<sub>`); the name of their latest sign-in.
 * - `case_starts.started_by`: the name of the API key that started the case, so that a key scoped
 *   to its own cases (`CASE_API_SCOPED_KEYS`) sees only those. Cases started before this migration
 *   have none: a scoped key does not see them.
 */
export const sql = `
CREATE TABLE console_revoked_sessions (
  session_id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_revoked_sessions_expiry ON console_revoked_sessions (expires_at);
CREATE TABLE console_operators (
  identity text PRIMARY KEY,
  name text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE case_starts ADD COLUMN started_by text;
CREATE INDEX case_starts_started_by ON case_starts (started_by, case_id) WHERE started_by IS NOT NULL;
`;
