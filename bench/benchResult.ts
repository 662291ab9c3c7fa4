/** Placeholder until the bench runner lands: prints the result line. */
export interface BenchResult { name: string; figure: number; unit: string; baseline: number; ratio: number; target: string; pass: boolean }
export function printResult(result: BenchResult): void {
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
}
