/** The workflow bundle's entry point: every workflow type the worker registers. */
export { resourceWorkflow } from './resourceWorkflow';
export { identityVerificationWorkflow } from './identityVerificationWorkflow';
