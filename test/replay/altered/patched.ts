/** The same change as unpatched.ts, made the right way: behind `patched()`, so old histories replay. */
import { patched, sleep } from '@temporalio/workflow';
import { identityVerificationWorkflow as original, type IdentityVerificationInput } from '../../../workflows/identityVerificationWorkflow';

export * from '../../../workflows';

export async function identityVerificationWorkflow(input: IdentityVerificationInput) {
  if (patched('pause-before-identity-request')) await sleep('1 second');
  return original(input);
}
