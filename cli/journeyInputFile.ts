/**
 * Reading a journey input file for `journey start`, validated before anything connects. Kept apart
 * from the commands so the CLI can check its arguments without loading the Temporal SDK.
 */
import { readFileSync } from 'node:fs';
import { describeIssues } from '../provider';
import { onboardCaseInputSchema, type OnboardCaseInput } from '../client/journeyInput';

export class JourneyCommandError extends Error {
  override name = 'JourneyCommandError';
}

export function readJourneyInput(file: string): OnboardCaseInput {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new JourneyCommandError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  const parsed = onboardCaseInputSchema.safeParse(raw);
  if (!parsed.success)
    throw new JourneyCommandError(
      `${file} is not a valid journey input:\n  ${describeIssues(parsed.error).join('\n  ')}`,
    );
  return raw as OnboardCaseInput;
}
