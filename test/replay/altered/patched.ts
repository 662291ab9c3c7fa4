/**
 * The same change as unpatched.ts, made as a change against a release is made (docs/versioning.md):
 * behind `patched()`, so the recorded histories replay on it.
 */
import { patched, sleep } from '@temporalio/workflow';
import {
  identityVerificationWorkflow as original,
  type IdentityVerificationInput,
} from '../../../workflows/identityVerificationWorkflow';

export * from '../../../workflows';

export async function identityVerificationWorkflow(input: IdentityVerificationInput) {
  if (patched('pause-before-identity-request')) await sleep('1 second');
  return original(input);
}
