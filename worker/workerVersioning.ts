/**
 * Worker Versioning (docs/deployment.md, "Upgrading workers"). A worker given a Worker Deployment
 * Version polls as that version: each workflow runs on the version that its behaviour
 * (workflows/versioningBehaviors.ts) ties it to — steps and resource workflows stay on the
 * version that started them, the journey moves to the current version at its next task. Without a
 * version the worker is unversioned, as the embedded stack's is.
 */
import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerDeploymentOptions } from '@temporalio/worker';

/**
 * For a workflow type that declares no behaviour: pinned, so that no code it was not started
 * with ever replays its history.
 */
export const defaultVersioningBehavior = 'PINNED' as const;

/** The `workerDeploymentOptions` of Worker.create for a version; none without one. */
export function workerDeploymentOptionsFor(version: WorkerDeploymentVersion | undefined): {
  workerDeploymentOptions?: WorkerDeploymentOptions;
} {
  if (!version) return {};
  return { workerDeploymentOptions: { useWorkerVersioning: true, version, defaultVersioningBehavior } };
}
