/**
 * A cosmetic change, for the replay test: identity verification sets a reason through `update()`
 * before anything else. Steps report to their journey only when state, provider ids or links
 * change, so the change adds no command and replays.
 */
import {
  identityVerificationWorkflow as original,
  type IdentityVerificationInput,
} from '../../../workflows/identityVerificationWorkflow';
import { trackStep } from '../../../workflows/stepStatus';

export * from '../../../workflows';

export async function identityVerificationWorkflow(input: IdentityVerificationInput) {
  trackStep(input.stepKey).update({ reason: 'checking the applicant' });
  return original(input);
}
