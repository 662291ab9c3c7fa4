/** The workflow bundle's entry point: every workflow type the worker registers. */
export { resourceWorkflow } from './resourceWorkflow';
export { onboardCase } from './onboardCaseWorkflow';
export { identityVerificationWorkflow } from './identityVerificationWorkflow';
export { creditReportWorkflow } from './creditReportWorkflow';
export { bankingWorkflow } from './bankingWorkflow';
export { documentsWorkflow } from './documentsWorkflow';
export { affordabilityWorkflow } from './affordabilityWorkflow';
export { incomeEmployerWorkflow } from './incomeEmployerWorkflow';
import './versioningBehaviors';
