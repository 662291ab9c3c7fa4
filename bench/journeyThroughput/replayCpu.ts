/**
 * The workflows' own CPU per journey, apart from everything a live round shares the cores with (the
 * dev server, the simulator, the case file, HTTP, gRPC): the histories of one measured round
 * replayed in this process, the system's on its own bundle and data converter (the codec decrypts
 * every payload, as the worker does), the baseline's on its own. A replay runs each workflow task's
 * code again and checks its commands against the history, so its CPU is the workflow code's and the
 * SDK's around it, with nothing sent anywhere.
 */
import type { DataConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { cpuMeter } from '../cpuMeter';

export interface KeptHistory {
  workflowId: string;
  history: temporal.api.history.v1.IHistory;
}

export interface ReplaySet {
  name: string;
  /** The bundle's code (`bundleWorkflowCode`), bundled before the measure. */
  code: string;
  dataConverter?: DataConverter;
  histories: KeptHistory[];
  journeys: number;
}

/** CPU milliseconds per journey (every thread of this process) to replay the set once. */
export async function replayCpuPerJourney(set: ReplaySet): Promise<number> {
  const spent = cpuMeter([]);
  const results = Worker.runReplayHistories(
    { workflowBundle: { code: set.code }, dataConverter: set.dataConverter, replayName: set.name },
    set.histories,
  );
  for await (const result of results)
    if (result.error) throw new Error(`${set.name}: ${result.workflowId} does not replay: ${result.error.message}`);
  return spent().selfMs / set.journeys;
}
