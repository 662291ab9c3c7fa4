/**
 * The case API's contract test at the fault run's size: many more generated requests
 * per operation than `npm test` affords, from a seed of its own (CONTRACT_SEED=<n> draws elsewhere).
 * The suite itself: test/support/caseApiContract.ts.
 */
import { caseApiContractSuite } from '../support/caseApiContract';

caseApiContractSuite({ simulatorSeed: 2301, examplesPerOperation: 150, budgetMs: 600_000, seed: 20261125 });
