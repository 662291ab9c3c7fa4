/**
 * The credit report's status words, without its schemas: workflow code reads them, and the
 * workflow bundle holds no zod, which creditReport.ts builds its schemas with.
 */

/** `TooManyResults` is the one value §3 names; `Complete` is assumed; others are kept as text. */
export const TOO_MANY_RESULTS = 'TooManyResults';
