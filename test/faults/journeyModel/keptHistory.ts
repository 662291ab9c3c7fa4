/**
 * A journey run's history kept for a closer look, when MODEL_HISTORY_DIR asks for it: the replay
 * test's file format (test/replay/historyFiles.ts), so `readHistories(dir)` and
 * `Worker.runReplayHistories` take it as they are (with the run's PAYLOAD_ENCRYPTION_KEYS).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { temporal } from '@temporalio/proto';
import type { Stack } from '../../../cli/stack';
import { encodeHistory, type HistoryFile } from '../../replay/historyFiles';

/** Writes the run's history to MODEL_HISTORY_DIR, if set; answers where, for the failure report. */
export async function keptHistory(env: { stack: Stack }, j: { caseId: string }, runId: string): Promise<string> {
  const dir = process.env.MODEL_HISTORY_DIR;
  if (!dir) return '';
  const workflowId = `case/${j.caseId}`;
  return writeHistory(workflowId, runId, await env.stack.client.workflow.getHandle(workflowId, runId).fetchHistory());
}

/** Writes a history to MODEL_HISTORY_DIR, if set; answers where. */
export function writeHistory(workflowId: string, runId: string, history: temporal.api.history.v1.IHistory): string {
  const dir = process.env.MODEL_HISTORY_DIR;
  if (!dir) return '';
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${workflowId.replace(/\//g, '_')}_${runId}.json`);
  const kept: HistoryFile = {
    generation: 'model',
    scenario: 'operator-model',
    workflowId,
    history: encodeHistory(history),
  };
  writeFileSync(file, JSON.stringify(kept));
  return ` (history in ${file})`;
}
