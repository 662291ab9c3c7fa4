/**
 * The baseline's process (baselineProcessMain.ts) seen from the benchmark: started with the same
 * node flags and tsx as the project's processes, on the stack's Temporal, and driven a round at a
 * time over IPC. Its pid is what the benchmark meters.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { TemporalConfig } from '../../config/temporalConfig';
import type { BaselineJourneyPlan } from './baselinePlan';

export type BaselineRequest = { kind: 'round'; template: BaselineJourneyPlan; count: number } | { kind: 'stop' };

export type BaselineAnswer =
  | { kind: 'ready'; settings: string }
  | { kind: 'round'; journeyIds: string[]; seconds: number; latencies: number[] }
  | { kind: 'failed'; message: string };

export interface BaselineProcess {
  pid: number;
  /** The baseline worker's settings (baselineWorker.ts `workerSettings`). */
  settings: string;
  round(template: BaselineJourneyPlan, count: number): Promise<Extract<BaselineAnswer, { kind: 'round' }>>;
  stop(): Promise<void>;
}

/** The next answer the process sends; rejects when it fails or exits first. */
function nextAnswer(child: ChildProcess): Promise<BaselineAnswer> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the baseline process exited (code ${code})`));
    child.once('exit', onExit);
    child.once('message', (message: BaselineAnswer) => {
      child.off('exit', onExit);
      if (message.kind === 'failed') reject(new Error(`the baseline process: ${message.message}`));
      else resolve(message);
    });
  });
}

/** Starts it on `temporal`, node given `nodeArgs` too (`--cpu-prof …` to profile it). */
export async function startBaselineProcess(
  temporal: TemporalConfig,
  nodeArgs: string[] = [],
): Promise<BaselineProcess> {
  const child = fork(require.resolve('./baselineProcessMain'), [], {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    env: { ...process.env, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await nextAnswer(child);
  if (ready.kind !== 'ready') throw new Error(`the baseline process answered ${ready.kind} before it was ready`);
  return {
    pid: child.pid ?? -1,
    settings: ready.settings,
    async round(template, count) {
      const answered = nextAnswer(child);
      child.send({ kind: 'round', template, count } satisfies BaselineRequest);
      const answer = await answered;
      if (answer.kind !== 'round') throw new Error(`the baseline process answered ${answer.kind} to a round`);
      return answer;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.send({ kind: 'stop' } satisfies BaselineRequest);
      await exited;
    },
  };
}
