/** Every wait's default length, in one place (DESIGN.md §4). Inputs override each. */
import type { Duration } from '@temporalio/common';

export const defaultDeadlines = {
  /** How long an applicant has to finish an identity check before the step gives up. */
  identityVerification: '14 days',
  /** A resource workflow ends after this long with no delivery and no subscriber activity. */
  resourceRetention: '30 days',
} as const satisfies Record<string, Duration>;
