/**
 * A case's events to the LOS as the case file holds them (migration 005): the journey's own events
 * logged by `notifyLos`, the derived ones written by triggers and the sweep, and the outbox that
 * delivers the derived ones. Every call is one short transaction: an HTTP send never runs inside
 * one (against the embedded PGlite an open transaction holds every other connection up).
 */
import type { Pool, PoolClient } from 'pg';
import { recordCaseEventSettings, type CaseEventSettings } from './caseEventSettings';
import { inTransaction } from './transaction';

export interface LoggedCaseEvent {
  id: string;
  /** Orders a case's events as they were recorded. */
  position: number;
  caseId: string;
  type: string;
  version: number;
  occurredAt: string;
  data: Record<string, unknown>;
  deliveredAt: string | null;
}

/** A journey event before its send: logged so that the events endpoint lists it even while the LOS is down. */
export interface JourneyEventLogEntry {
  id: string;
  caseId: string;
  type: string;
  version: number;
  occurredAt: string;
  data: Record<string, unknown>;
}

export class CaseEventLog {
  constructor(private readonly pool: Pool) {}

  logJourneyEvent(e: JourneyEventLogEntry): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query(
        `INSERT INTO case_events (event_id, case_id, type, version, occurred_at, data, sender)
           VALUES ($1, $2, $3, $4, $5, $6, 'journey')
         ON CONFLICT (event_id) DO NOTHING`,
        [e.id, e.caseId, e.type, e.version, e.occurredAt, JSON.stringify(e.data)],
      );
    });
  }

  /** A case's reminder and SLA times, recorded before its journey starts. */
  recordSettings(caseId: string, settings: CaseEventSettings): Promise<void> {
    return inTransaction(this.pool, (c) => recordCaseEventSettings(c, caseId, settings));
  }

  markDelivered(id: string): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query(
        'UPDATE case_events SET delivered_at = COALESCE(delivered_at, now()), ' +
          'next_attempt_at = NULL WHERE event_id = $1',
        [id],
      );
    });
  }

  /** A case's events in the order they were recorded. */
  list(caseId: string): Promise<LoggedCaseEvent[]> {
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query(`SELECT * FROM case_events WHERE case_id = $1 ORDER BY position`, [caseId]);
      return rows.map(loggedEventOf);
    });
  }

  /**
   * Takes up to `limit` outbox events that are due, and leases each for `leaseMs`: another worker
   * skips them meanwhile, and a worker that dies with them leaves them to be taken again once the
   * lease runs out (the LOS dedupes the repeat by its id).
   */
  claimDue(limit: number, leaseMs: number): Promise<(LoggedCaseEvent & { attempts: number })[]> {
    return inTransaction(this.pool, async (c) => {
      const { rows } = await c.query(
        `UPDATE case_events SET next_attempt_at = now() + $2 * interval '1 millisecond', attempts = attempts + 1
         WHERE event_id IN (SELECT event_id FROM case_events WHERE next_attempt_at <= now() ORDER BY next_attempt_at
           LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [limit, leaseMs],
      );
      return rows.map((r: Record<string, unknown>) => ({ ...loggedEventOf(r), attempts: r.attempts as number }));
    });
  }

  /** After a failed send: the next try in `retryInMs`, or none once the event is older than `giveUpAfterMs`. */
  deferred(id: string, error: string, retryInMs: number, giveUpAfterMs: number): Promise<void> {
    return inTransaction(this.pool, async (c) => {
      await c.query(
        `UPDATE case_events SET last_error = $2,
           given_up_at = CASE WHEN recorded_at + $4 * interval '1 millisecond' <= now() THEN now() END,
           next_attempt_at = CASE WHEN recorded_at + $4 * interval '1 millisecond' <= now() THEN NULL
             ELSE now() + $3 * interval '1 millisecond' END
         WHERE event_id = $1`,
        [id, error.slice(0, 500), retryInMs, giveUpAfterMs],
      );
    });
  }

  /** Runs one sweep (caseEventSweep.ts) in a transaction of its own. */
  run<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }
}

function loggedEventOf(r: Record<string, unknown>): LoggedCaseEvent {
  return {
    id: r.event_id as string,
    position: Number(r.position),
    caseId: r.case_id as string,
    type: r.type as string,
    version: r.version as number,
    occurredAt: (r.occurred_at as Date).toISOString(),
    data: r.data as Record<string, unknown>,
    deliveredAt: r.delivered_at ? (r.delivered_at as Date).toISOString() : null,
  };
}
