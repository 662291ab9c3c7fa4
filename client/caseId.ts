/**
 * The one schema of a case id, wherever one comes in (the journey input, every case API route,
 * the console, the CLI): a provider id as idRules.ts defines it, letters, digits and `. _ : -`
 * starting with a letter or digit, at most 200 characters. Workflow ids are built from it
 * (`case/<caseId>`, `case/<caseId>/<step>/<attempt>`), so a case id may hold no `/`: otherwise
 * `V/identity-verification/nobody/2` would start case V's next IDV attempt as a journey of its own.
 */
export { caseIdSchema } from './idSchemas';
export { ID_MAX_LENGTH as CASE_ID_MAX_LENGTH } from './idRules';
