/**
 * The names of the journey's steps and of the operator actions, in one table (docs/architecture.md,
 * "Names", prints it; test/unit/journeyNames.test.ts holds the two, the CLI, the case API's routes
 * and the workflows' exports to it). Every name here is a contract: recorded histories, workflow
 * ids, API clients and scripts hold them, so a name is added, never renamed.
 *
 * Workflow code imports this module (through journeyMessages.ts): it is plain data, no zod.
 */

/**
 * Each step by its field in the journey input's `steps`, in plan order (the order of `status`):
 * `key`, the step's key in `status`, in its child workflow ids (journeyMessages.ts,
 * `attemptWorkflowId`), in the CLI's and the API's step argument and in the audit trail (an
 * identity verification's key is `identity-verification/<personId>`, one step per person); and
 * `workflowType`, the child workflow that runs each attempt of it.
 */
export const journeySteps = {
  creditReport: { key: 'credit-report', workflowType: 'creditReportWorkflow' },
  identityVerification: { key: 'identity-verification', workflowType: 'identityVerificationWorkflow' },
  banking: { key: 'banking', workflowType: 'bankingWorkflow' },
  documents: { key: 'documents', workflowType: 'documentsWorkflow' },
  incomeEmployer: { key: 'income-employer', workflowType: 'incomeEmployerWorkflow' },
  affordability: { key: 'affordability', workflowType: 'affordabilityWorkflow' },
} as const;

/** A step's field in the journey input's `steps`. */
export type StepField = keyof typeof journeySteps;

/** A step's kind: its key, or for identity verification the part before `/<personId>`. */
export type StepKind = (typeof journeySteps)[StepField]['key'];

/** The step kinds in plan order. */
export const stepKinds: readonly StepKind[] = Object.values(journeySteps).map((step) => step.key);

/**
 * Each operator action on a journey by its Update's name (defined in journeyMessages.ts; also the
 * audit trail's `action`): `name`, its name in the CLI and the prefix of its Update ids
 * (`<name>/<request id>`, operatorRequestId.ts); `cli`, the CLI command (`waive` takes `waive-step`
 * too); `path`, the case API's route (POST).
 */
export const operatorActions = {
  retryStep: { name: 'retry-step', cli: 'retry-step', path: '/v1/cases/:caseId/steps/:step/retry' },
  waiveStep: { name: 'waive-step', cli: 'waive', path: '/v1/cases/:caseId/steps/:step/waive' },
  resolvePicklist: { name: 'resolve-picklist', cli: 'resolve-picklist', path: '/v1/cases/:caseId/picklist' },
} as const;

/** An operator action's Update name. */
export type OperatorUpdateName = keyof typeof operatorActions;

/**
 * The renewal of a closed case's evidence (client/evidenceRefresh.ts): an operator action that
 * starts a new run of the journey rather than sending an Update. `name` prefixes the ids its
 * request ids make (`refresh/<request id>`, kept on the run it started); `cli`, its CLI command;
 * `path`, its case API route (POST).
 */
export const evidenceRefreshAction = { name: 'refresh', cli: 'refresh', path: '/v1/cases/:caseId/refresh' } as const;

/** An operator action's name: its CLI name and the prefix of its Update ids (or, for a refresh, its request ids). */
export type OperatorActionName =
  (typeof operatorActions)[OperatorUpdateName]['name'] | (typeof evidenceRefreshAction)['name'];
