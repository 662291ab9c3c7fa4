/**
 * Where bench:throughput's rounds spent their time, part by part, from its CPU profiles
 * (journeyThroughput/cpuByPart.ts says how to make them):
 *
 *   npx tsx bench/throughputCpuByPart.ts <BENCH_THROUGHPUT_PROFILE_DIR> <the benchmark's output>
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cpuTable, perJourneyByPart, windowsIn, type CpuProfile } from './journeyThroughput/cpuByPart';
import { exitWhenDone } from './exitWhenDone';

const USAGE = "usage: npx tsx bench/throughputCpuByPart.ts <BENCH_THROUGHPUT_PROFILE_DIR> <the benchmark's output>";

async function main(): Promise<number> {
  const [dir, logFile] = process.argv.slice(2);
  if (dir === '--help' || dir === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (!dir || !logFile) {
    console.error(USAGE);
    return 2;
  }
  const windows = windowsIn(readFileSync(logFile, 'utf8'));
  if (windows.length === 0) {
    console.error(
      `${logFile} names no round: run bench/journeyThroughput.ts with BENCH_THROUGHPUT_PROFILE_DIR set and keep its output`,
    );
    return 2;
  }
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile);
  if (profiles.length === 0) {
    console.error(`${dir} holds no .cpuprofile file: give the directory of BENCH_THROUGHPUT_PROFILE_DIR`);
    return 2;
  }
  for (const line of cpuTable(perJourneyByPart(profiles, windows))) console.log(line);
  return 0;
}

exitWhenDone(main);
