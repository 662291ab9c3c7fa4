/**
 * Each workflow type's Worker Versioning behaviour, used when the worker runs a Worker Deployment
 * Version (worker/workerVersioning.ts; docs/deployment.md, "Upgrading workers"). A step attempt
 * and a resource workflow are PINNED: a run finishes on the version that started it, so a change to
 * their code needs no patch — new attempts and new resources start on the current version, and a
 * resource continues as new onto it at its next task (resourceWorkflow.ts). The
 * journey is AUTO_UPGRADE: it lives up to its operator deadline and moves to the current version
 * at its next task, so a change to its code still follows docs/versioning.md.
 *
 * The server refuses a behaviour from an unversioned worker (the embedded stack's), so it is
 * declared only when the task runs under a Worker Deployment Version; the getter runs once, at
 * the workflow's first activation in a worker.
 */
import type { VersioningBehavior } from '@temporalio/common';
import { setWorkflowOptions, workflowInfo, type Workflow } from '@temporalio/workflow';
import { affordabilityWorkflow } from './affordabilityWorkflow';
import { bankingWorkflow } from './bankingWorkflow';
import { creditReportWorkflow } from './creditReportWorkflow';
import { documentsWorkflow } from './documentsWorkflow';
import { identityVerificationWorkflow } from './identityVerificationWorkflow';
import { incomeEmployerWorkflow } from './incomeEmployerWorkflow';
import { onboardCase } from './onboardCaseWorkflow';
import { resourceWorkflow } from './resourceWorkflow';

/** By workflow type: the journey upgrades, its steps and the resources pin. */
export const versioningBehaviors = {
  onboardCase: 'AUTO_UPGRADE',
  creditReportWorkflow: 'PINNED',
  identityVerificationWorkflow: 'PINNED',
  bankingWorkflow: 'PINNED',
  documentsWorkflow: 'PINNED',
  affordabilityWorkflow: 'PINNED',
  incomeEmployerWorkflow: 'PINNED',
  resourceWorkflow: 'PINNED',
} as const satisfies Record<string, VersioningBehavior>;

const workflowsByType: Readonly<Record<keyof typeof versioningBehaviors, Workflow>> = {
  onboardCase,
  creditReportWorkflow,
  identityVerificationWorkflow,
  bankingWorkflow,
  documentsWorkflow,
  affordabilityWorkflow,
  incomeEmployerWorkflow,
  resourceWorkflow,
};

/** `behavior` under a Worker Deployment Version; nothing on an unversioned worker. */
export function whenVersioned(behavior: VersioningBehavior): () => { versioningBehavior?: VersioningBehavior } {
  return () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: behavior } : {});
}

for (const [type, workflow] of Object.entries(workflowsByType)) {
  setWorkflowOptions(whenVersioned(versioningBehaviors[type as keyof typeof versioningBehaviors]), workflow);
}
