/**
 * The credit report's status words, without its schemas: workflow code reads them, and a workflow
 * bundle that imported creditReport.ts would evaluate zod and every schema for each workflow run.
 */

/** `TooManyResults` is the one value §3 names; `Complete` is assumed; others are kept as text. */
export const TOO_MANY_RESULTS = 'TooManyResults';
