/**
 * The benchmarks `npm run bench` runs, in this order, each as its own process. One line each:
 * add yours here. A script that does not exist (yet) is left out of the run, not failed.
 */
export interface Benchmark {
  name: string;
  /** Relative to the project root. */
  script: string;
}

export const benchmarks: readonly Benchmark[] = [
  { name: 'bridge', script: 'bench/bridgeThroughput.ts' },
  { name: 'token economy', script: 'bench/tokenEconomy.ts' },
  { name: 'case file writes', script: 'bench/caseFileWrites.ts' },
  { name: 'journey throughput', script: 'bench/journeyThroughput.ts' },
  { name: 'journey cost', script: 'bench/journeyCost.ts' },
  { name: 'waiting cost', script: 'bench/waitingCost.ts' },
  { name: 'looking', script: 'bench/lookingCost.ts' },
  { name: 'idle journeys', script: 'bench/idleJourneys.ts' },
];
