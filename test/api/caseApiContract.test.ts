/**
 * The case API keeps its OpenAPI document's promises under generated requests, at the
 * size `npm test` affords (about 40 s), from a fixed seed; test/faults/caseApiContract.test.ts runs
 * many more, from a new seed each run.
 * The suite itself: test/support/caseApiContract.ts.
 */
import { caseApiContractSuite } from '../support/caseApiContract';

caseApiContractSuite({ simulatorSeed: 2301, examplesPerOperation: 12, budgetMs: 60_000, seed: 20261124 });
