/**
 * A deliberately broken change, for the replay test: identity verification now starts a timer
 * before its first activity, without `patched()`. Replaying the recorded histories must fail.
 */
import { sleep } from '@temporalio/workflow';
import {
  identityVerificationWorkflow as original,
  type IdentityVerificationInput,
} from '../../../workflows/identityVerificationWorkflow';

export * from '../../../workflows';

export async function identityVerificationWorkflow(input: IdentityVerificationInput) {
  await sleep('1 second');
  return original(input);
}
