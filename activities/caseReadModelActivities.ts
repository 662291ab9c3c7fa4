/**
 * The journey writes its state into the case file's read model through this activity.
 * The write is ordered and idempotent in the store (caseReadModel.ts), so a retried or late write
 * never overwrites a newer state; it answers only whether it changed the row (a small marker).
 */
import { ApplicationFailure } from '@temporalio/common';
import { journeyStateWriteSchema, type JourneyStateWrite } from '../case-file/caseReadModel';
import type { CaseFileStore } from '../case-file/store';

export function createCaseReadModelActivities(caseFile: CaseFileStore) {
  return {
    async writeCaseState(write: JourneyStateWrite): Promise<boolean> {
      const parsed = journeyStateWriteSchema.safeParse(write);
      // A malformed write is a bug in the journey: trying it again would not help.
      if (!parsed.success)
        throw ApplicationFailure.nonRetryable(
          `the journey's state does not fit the read model: ${parsed.error.message}`,
          'InvalidReadModelWrite',
        );
      return caseFile.writeJourneyState(parsed.data);
    },
  };
}
