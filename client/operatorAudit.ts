/**
 * Every operator action goes into the case file's audit trail with its actor and outcome:
 * accepted, or refused with the journey's words. An action whose outcome is unknown (Temporal did
 * not answer) is not recorded as either: the operator tries again, and that try is recorded.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { AuditEntryInput } from '../case-file/auditTrail';
import type { CaseFileStore } from '../case-file/store';
import { JourneyClosedError, RequestIdReusedError } from './journeyErrors';

export type AuditedAction = Omit<AuditEntryInput, 'outcome' | 'message'>;

/** Runs the action; records what came of it when the store is there. */
export async function audited<T>(
  store: CaseFileStore | undefined,
  action: AuditedAction,
  act: () => Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await act();
  } catch (error) {
    const refusal = refusalMessage(error);
    if (store && refusal !== undefined) await store.appendAudit({ ...action, outcome: 'refused', message: refusal });
    throw error;
  }
  if (store) await store.appendAudit({ ...action, outcome: 'accepted' });
  return result;
}

/** The journey's (or the client's) refusal, or undefined when the action's outcome is not known. */
export function refusalMessage(error: unknown): string | undefined {
  if (error instanceof WorkflowUpdateFailedError)
    return (error.cause as { message?: string } | undefined)?.message ?? error.message;
  if (error instanceof JourneyClosedError || error instanceof RequestIdReusedError) return error.message;
  return undefined;
}

/** Who acts when no one is named: the operating system's user of a CLI, else "unknown". */
export const defaultActor = (env: NodeJS.ProcessEnv = process.env) => env.USER || env.USERNAME || 'unknown';
