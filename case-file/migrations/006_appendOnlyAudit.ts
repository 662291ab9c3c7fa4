/**
 * The operator audit trail is append-only in the database itself, not only by the store's calls
 * whoever holds a connection (a script, a migration, a mistaken fix by hand) cannot
 * rewrite or remove who did what. A trigger refuses DELETE and TRUNCATE, and every UPDATE but the
 * one erasure makes (case-file/purge.ts): `reason` and `message` set to null, every other column as
 * it was. The comparison is over the whole row less those two, so a column added later is kept
 * unchangeable without touching this trigger.
 */
export const sql = `
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.reason IS NULL AND NEW.message IS NULL AND to_jsonb(NEW) - 'reason' - 'message' = to_jsonb(OLD) - 'reason' - 'message' THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'operator_audit is append-only: an entry may only have its reason and message blanked (erasure)' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RAISE EXCEPTION 'operator_audit is append-only: % is refused', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER operator_audit_append_only BEFORE UPDATE OR DELETE ON operator_audit FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
CREATE TRIGGER operator_audit_no_truncate BEFORE TRUNCATE ON operator_audit FOR EACH STATEMENT EXECUTE FUNCTION operator_audit_append_only();
`;
