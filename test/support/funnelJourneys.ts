/**
 * 30 journeys of known outcomes and timings for the funnel (case-file/funnel.ts), written as the
 * journey and the operators write them (the read model's write, the audit trail's append), each
 * write stamped with its own time (caseFileClock.ts). Minutes from each case's start:
 *
 * - Week of 2 Nov, 10 cases (i = 1..10): the credit report runs and completes at 10·i; banking
 *   waits on the applicant's link until 30, runs, completes at 40. Open.
 * - Week of 9 Nov (cases started on 10 Nov, one an hour from 01:00), 10 cases (j = 1..10): the
 *   credit report fails at 20, an operator retries it at 20 + 5j, it completes 10 later; banking
 *   waits on the link, expires at 60; an operator cancels the case at 110 and it closes at 120.
 * - Week of 16 Nov, 10 cases (k = 1..10): the credit report completes at 15; banking waits on the
 *   link, fails at 30, an operator takes the case (assign) at 30 + 3k, waives banking at 85, it is
 *   waived at 90; the identity verification still waits on the applicant. Open.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { appendAudit, type AuditEntryInput } from '../../case-file/auditTrail';
import { pinCaseFileClock } from '../../case-file/caseFileClock';
import { writeJourneyState, type JourneyStateWrite } from '../../case-file/caseReadModel';
import { inTransaction } from '../../case-file/transaction';

type StepState = { state: string; links?: Record<string, string>; attempt?: number };
/** At a minute of the case: steps that change, an operator's action, or the case closing. */
type Change =
  | { at: number; steps: Record<string, StepState> }
  | { at: number; audit: Pick<AuditEntryInput, 'action' | 'step'> }
  | { at: number; close: true };

const link = { state: 'waiting', links: { applicant: 'https://example.test/link' } };
const minutes = (n: number) => n * 60_000;

export async function writeCase(pool: Pool, start: Date, changes: Change[]): Promise<void> {
  const caseId = randomUUID();
  const steps: Record<string, StepState & { providerIds: Record<string, string> }> = {};
  let version = 0;
  for (const change of [...changes].sort((a, b) => a.at - b.at)) {
    const at = new Date(start.getTime() + minutes(change.at));
    await inTransaction(pool, async (client) => {
      await pinCaseFileClock(client, at);
      if ('audit' in change) {
        await appendAudit(client, { caseId, actor: 'ops', outcome: 'accepted', ...change.audit });
        return;
      }
      if ('steps' in change)
        for (const [key, step] of Object.entries(change.steps)) steps[key] = { providerIds: {}, ...step };
      const closed = 'close' in change;
      const write: JourneyStateWrite = {
        caseId,
        workflowId: `case/${caseId}`,
        runId: 'run-1',
        runStartedAt: start.toISOString(),
        version: ++version,
        state: closed ? 'cancelled' : 'running',
        runStatus: closed ? 'CANCELLED' : 'RUNNING',
        steps: structuredClone(steps),
        allSteps: true,
        reasons: [],
        operatorDeadline: null,
        stateSince: at.toISOString(),
      };
      await writeJourneyState(client, write);
    });
  }
}

const startOf = (day: string, hour: number) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00.000Z`);

export async function writeFunnelJourneys(pool: Pool): Promise<void> {
  for (let i = 1; i <= 10; i++)
    await writeCase(pool, startOf('2026-11-02', i), [
      { at: 0, steps: { 'credit-report': { state: 'running' }, banking: link } },
      { at: 10 * i, steps: { 'credit-report': { state: 'completed' } } },
      { at: 30, steps: { banking: { state: 'running' } } },
      { at: 40, steps: { banking: { state: 'completed' } } },
    ]);
  for (let j = 1; j <= 10; j++)
    await writeCase(pool, startOf('2026-11-10', j), [
      { at: 0, steps: { 'credit-report': { state: 'running' }, banking: link } },
      { at: 20, steps: { 'credit-report': { state: 'needs_attention' } } },
      { at: 20 + 5 * j, audit: { action: 'retryStep', step: 'credit-report' } },
      { at: 20 + 5 * j, steps: { 'credit-report': { state: 'running', attempt: 2 } } },
      { at: 30 + 5 * j, steps: { 'credit-report': { state: 'completed', attempt: 2 } } },
      { at: 60, steps: { banking: { state: 'expired' } } },
      { at: 110, audit: { action: 'cancel', step: null } },
      { at: 120, close: true },
    ]);
  for (let k = 1; k <= 10; k++)
    await writeCase(pool, startOf('2026-11-18', k), [
      { at: 0, steps: { 'credit-report': { state: 'running' }, 'identity-verification/p-1': link, banking: link } },
      { at: 15, steps: { 'credit-report': { state: 'completed' } } },
      { at: 30, steps: { banking: { state: 'failed' } } },
      { at: 30 + 3 * k, audit: { action: 'assign', step: null } },
      { at: 85, audit: { action: 'waiveStep', step: 'banking' } },
      { at: 90, steps: { banking: { state: 'waived' } } },
    ]);
}
