/**
 * The queue's deadline: the earlier of the journey's operator deadline and the moment
 * the wait of any step waiting on a picklist expires (its `detail.expiresAt`, which the credit
 * report step reports while it waits; client/creditReportMessages.ts). A case waiting on a picklist
 * is the commonest wait for an operator, and the journey sets its operator deadline only when no
 * step runs: without this column, such a case would show no deadline and sort last by deadline.
 *
 * `case_journeys.deadline` is a stored generated column: computed by the database from the row's
 * own `operator_deadline` and `steps` at every write, whoever writes (the journey's activity of
 * any version, erasure), and for the rows already there when the column is added. The function is
 * IMMUTABLE as a generated column requires, and is so in fact: it reads only its arguments, and
 * takes an `expiresAt` only in the ISO 8601 form with an explicit offset (`Z` or `±hh:mm`), whose
 * reading depends on no session setting; any other value, or one that is not a time, is ignored
 * rather than refusing the journey's write.
 *
 * The queue sorts on it (case-file/caseQueue.ts), hence its index; the operator deadline's own
 * index (migration 002) served that sort only, and goes.
 */
export const sql = `
CREATE FUNCTION case_queue_deadline(operator_deadline timestamptz, steps jsonb) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  deadline timestamptz := operator_deadline;
  step jsonb;
  expires_text text;
  expires timestamptz;
BEGIN
  IF jsonb_typeof(steps) IS DISTINCT FROM 'object' THEN
    RETURN deadline;
  END IF;
  FOR step IN SELECT value FROM jsonb_each(steps) LOOP
    CONTINUE WHEN jsonb_typeof(step) IS DISTINCT FROM 'object' OR step->>'state' IS DISTINCT FROM 'waiting';
    CONTINUE WHEN jsonb_typeof(step #> '{detail,picklist}') IS DISTINCT FROM 'array' OR jsonb_array_length(step #> '{detail,picklist}') = 0;
    expires_text := step #>> '{detail,expiresAt}';
    CONTINUE WHEN expires_text IS NULL OR expires_text !~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$';
    BEGIN
      expires := expires_text::timestamptz;
    EXCEPTION WHEN others THEN
      CONTINUE;
    END;
    deadline := LEAST(deadline, expires);
  END LOOP;
  RETURN deadline;
END $$;

ALTER TABLE case_journeys ADD COLUMN deadline timestamptz GENERATED ALWAYS AS (case_queue_deadline(operator_deadline, steps)) STORED;
CREATE INDEX case_journeys_queue_deadline ON case_journeys (deadline, case_id);
DROP INDEX case_journeys_deadline;
`;
