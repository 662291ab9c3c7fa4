/**
 * The one schema of a case id, wherever one comes in (the journey input, every case API route,
 * the console): letters, digits and `. _ : -`, at most 200 characters. Workflow ids are built from
 * it (`case/<caseId>`, `case/<caseId>/<step>/<attempt>`), so a case id may hold no `/`: otherwise
 * `V/identity-verification/nobody/2` would start case V's next IDV attempt as a journey of its own.
 */
import { z } from 'zod';

export const CASE_ID_MAX_LENGTH = 200;

export const caseIdSchema = z
  .string()
  .min(1, 'caseId is required')
  .max(CASE_ID_MAX_LENGTH, `caseId must be at most ${CASE_ID_MAX_LENGTH} characters`)
  .regex(/^[A-Za-z0-9._:-]+$/, 'caseId must be letters, digits, . _ : - (no /)')
  .meta({ description: "The lender's case id: letters, digits, . _ : -, at most 200 characters" });
