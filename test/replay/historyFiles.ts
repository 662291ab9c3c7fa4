/**
 * Recorded histories on disk: `{ generation, scenario, workflowId, history }` with the history as
 * its protobuf bytes in Base64 (exact, and independent of JSON mapping differences between SDK
 * versions). A generation is the release whose workflow code recorded it (docs/versioning.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { HistoryAndWorkflowId } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

export const historiesDir = path.join(__dirname, 'histories');

export function encodeHistory(history: History): string {
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('base64');
}

export interface RecordedHistory extends HistoryAndWorkflowId {
  file: string;
  generation: string;
  scenario: string;
  history: temporal.api.history.v1.History;
}

export interface HistoryFile {
  generation: string;
  scenario: string;
  workflowId: string;
  /** The protobuf bytes, Base64. */
  history: string;
}

export function readHistories(dir = historiesDir): RecordedHistory[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const { generation, scenario, workflowId, history } = JSON.parse(
        readFileSync(path.join(dir, file), 'utf8'),
      ) as HistoryFile;
      return {
        file,
        generation,
        scenario,
        workflowId,
        history: temporal.api.history.v1.History.decode(Buffer.from(history, 'base64')),
      };
    });
}
