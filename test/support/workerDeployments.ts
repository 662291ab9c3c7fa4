/**
 * Worker Deployment Versions seen from a test: making one current (as an operator does with
 * `temporal worker deployment set-current-version`), and which version a workflow runs on.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

/**
 * Makes `version` current for its deployment and waits until the change has reached the task
 * queue (the routing config propagates to it after the call returns; a task dispatched before that
 * still goes to the previous version). A version exists once a worker of it has polled, so the
 * first calls may be refused; they are repeated until the deadline.
 */
export async function makeCurrent(client: Client, version: WorkerDeploymentVersion, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const { namespace } = client.options;
  await untilDeadline(deadline, `${version.deploymentName}.${version.buildId} could not be made current`, async () => {
    await client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace,
      deploymentName: version.deploymentName,
      buildId: version.buildId,
      identity: 'worker upgrade test',
    });
    return true;
  });
  await untilDeadline(
    deadline,
    `${version.deploymentName}.${version.buildId} was made current but did not reach the task queue`,
    async () => {
      const info = (
        await client.workflowService.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName })
      ).workerDeploymentInfo;
      const completed =
        info?.routingConfigUpdateState ===
        temporal.api.enums.v1.RoutingConfigUpdateState.ROUTING_CONFIG_UPDATE_STATE_COMPLETED;
      return completed && info?.routingConfig?.currentDeploymentVersion?.buildId === version.buildId;
    },
  );
}

/** Calls `attempt` until it answers true; an error or false is tried again 200 ms later, until the deadline. */
async function untilDeadline(deadline: number, failure: string, attempt: () => Promise<boolean>): Promise<void> {
  let last: unknown = 'not yet';
  for (;;) {
    try {
      if (await attempt()) return;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${failure} in time; last: ${String(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface VersionOfWorkflow {
  behavior: 'PINNED' | 'AUTO_UPGRADE' | 'unversioned';
  /** The build id it runs on (a pinned workflow: the one it is pinned to). */
  buildId: string | undefined;
}

/** The versioning behaviour and build id a workflow last ran with (DescribeWorkflowExecution). */
export async function versionOf(handle: WorkflowHandle): Promise<VersionOfWorkflow> {
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  const behaviors: Record<number, VersionOfWorkflow['behavior']> = {
    [temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED]: 'PINNED',
    [temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE]: 'AUTO_UPGRADE',
  };
  return {
    behavior: behaviors[info?.behavior ?? 0] ?? 'unversioned',
    buildId: info?.deploymentVersion?.buildId ?? undefined,
  };
}

/**
 * The workflows still running on a version (the visibility query an operator runs before retiring
 * it): `type id` each.
 */
export async function runningOn(client: Client, version: WorkerDeploymentVersion): Promise<string[]> {
  const query = `TemporalWorkerDeploymentVersion = "${version.deploymentName}:${version.buildId}" AND ExecutionStatus = "Running"`;
  const running: string[] = [];
  for await (const workflow of client.workflow.list({ query })) running.push(`${workflow.type} ${workflow.workflowId}`);
  return running.sort();
}

/**
 * A version's drainage status (`temporal worker deployment describe-version`): DRAINING, DRAINED,
 * or unspecified while current.
 */
export async function drainageOf(client: Client, version: WorkerDeploymentVersion): Promise<string> {
  const described = await client.workflowService.describeWorkerDeploymentVersion({
    namespace: client.options.namespace,
    deploymentVersion: version,
  });
  const status = described.workerDeploymentVersionInfo?.drainageInfo?.status ?? 0;
  return temporal.api.enums.v1.VersionDrainageStatus[status]?.replace('VERSION_DRAINAGE_STATUS_', '') ?? String(status);
}
