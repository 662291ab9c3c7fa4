/**
 * `npm run bench`: runs every benchmark of bench/benchmarks.ts whose script exists, one after the
 * other, each in its own process with its output streamed; then prints one summary table of the
 * figures they reported (BENCH_RESULT lines) and exits non-zero when any benchmark failed.
 * `npm run bench -- bridge "token economy"` runs only the benchmarks named.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectRoot } from '../config/projectRoot';
import { parseBenchResults, parseBenchSizes } from './benchResult';
import { benchmarks, type Benchmark } from './benchmarks';
import { formatSizes, formatTable, runPassed, summaryRows, type BenchmarkRun } from './benchSummary';
import { exitWhenDone } from './exitWhenDone';

function runOne(benchmark: Benchmark): Promise<BenchmarkRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', benchmark.script], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const finish = (exitCode: number | null) => {
      const { results, problems } = parseBenchResults(output);
      resolve({
        name: benchmark.name,
        exitCode,
        results,
        problems,
        seconds: (performance.now() - started) / 1000,
        sizes: parseBenchSizes(output),
      });
    };
    child.once('error', (error) => {
      process.stderr.write(`${benchmark.script}: ${error.message}\n`);
      finish(null);
    });
    child.once('close', (code) => finish(code));
  });
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !benchmarks.some((b) => b.name === name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.name).join(', ')}`);
    return 2;
  }
  const selected = benchmarks.filter((b) => wanted.length === 0 || wanted.includes(b.name));
  const present = selected.filter((b) => existsSync(path.join(projectRoot, b.script)));
  for (const b of selected.filter((s) => !present.includes(s)))
    console.log(`(${b.name}: ${b.script} does not exist yet; left out)`);
  console.log(
    `running ${present.length} benchmark(s) on ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${new Date().toISOString()}`,
  );

  const runs: BenchmarkRun[] = [];
  for (const benchmark of present) {
    console.log(
      `\n=== ${benchmark.name} (${benchmark.script}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} ===`,
    );
    const run = await runOne(benchmark);
    console.log(`=== ${benchmark.name}: exit ${run.exitCode}, ${run.seconds.toFixed(0)} s ===`);
    runs.push(run);
  }

  const passed = runPassed(runs);
  const minutes = runs.reduce((sum, r) => sum + r.seconds, 0) / 60;
  console.log(
    `\nsummary (${new Date().toISOString()}):\n${formatTable(summaryRows(runs))}\n\nrun sizes and times (${minutes.toFixed(1)} min in all):\n${formatSizes(runs)}\n\n${passed ? 'all benchmarks met their targets' : 'some benchmark failed or missed its target'}`,
  );
  return passed ? 0 : 1;
}

exitWhenDone(main);
