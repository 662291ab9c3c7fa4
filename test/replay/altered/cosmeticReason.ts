/**
 * A cosmetic change, for the replay test: identity verification sets a reason through `update()`
 * before anything else. Steps report to their journey only when state, provider ids or links
 * change, so on histories recorded since then the change adds no command and replays; on older
 * histories (which signalled every update) it is caught as non-determinism.
 */
import { identityVerificationWorkflow as original, type IdentityVerificationInput } from '../../../workflows/identityVerificationWorkflow';
import { trackStep } from '../../../workflows/stepStatus';

export * from '../../../workflows';

export async function identityVerificationWorkflow(input: IdentityVerificationInput) {
  trackStep(input.stepKey).update({ reason: 'checking the applicant' });
  return original(input);
}
