/**
 * Version 2 of the workflow code for the worker upgrade test (test/workflows/workerUpgrade.test.ts):
 * the workflows as they are, except that the identity verification step differs, without a
 * patch — it records `stepCode: 'v2'` in its memo before anything else, a command v1's histories
 * do not have. The journey's code is unchanged.
 */
import { setWorkflowOptions, upsertMemo } from '@temporalio/workflow';
import { identityVerificationWorkflow as identityVerificationV1 } from '../../workflows/identityVerificationWorkflow';
import { whenVersioned } from '../../workflows/versioningBehaviors';

export * from '../../workflows';

export async function identityVerificationWorkflow(
  input: Parameters<typeof identityVerificationV1>[0],
): ReturnType<typeof identityVerificationV1> {
  upsertMemo({ stepCode: 'v2' });
  return identityVerificationV1(input);
}

setWorkflowOptions(whenVersioned('PINNED'), identityVerificationWorkflow);
