/**
 * The case API's contract test (issue 23) at the fault run's size: many more generated requests
 * per operation than `npm test` affords. The suite itself: test/support/caseApiContract.ts.
 */
import { caseApiContractSuite } from '../support/caseApiContract';

caseApiContractSuite({ simulatorSeed: 2301, examplesPerOperation: 150, budgetMs: 600_000 });
