/**
 * The case API's contract test at the fault run's size: many more generated requests
 * per operation than `npm run test:e2e` affords (CONTRACT_EXAMPLES=<n> sets another size), from a
 * seed of its own (CONTRACT_SEED=<n> draws elsewhere). The suite itself: test/support/caseApiContract.ts.
 */
import { caseApiContractSuite } from '../support/caseApiContract';

const examplesPerOperation = Number(process.env.CONTRACT_EXAMPLES ?? 150);
if (!Number.isInteger(examplesPerOperation) || examplesPerOperation < 1)
  throw new Error(`CONTRACT_EXAMPLES=${process.env.CONTRACT_EXAMPLES}: expected a whole number of examples, 1 or more`);

caseApiContractSuite({ simulatorSeed: 2301, examplesPerOperation, budgetMs: 600_000, seed: 20261125 });
