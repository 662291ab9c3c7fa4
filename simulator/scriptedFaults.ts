/**
 * Scripted and rate-based API faults: a test says "the next N calls to this route answer S" (with
 * `Retry-After` when given) or "lose their answer"; the seeded injector draws latency, 5xx, 429
 * and lost answers by rate.
 */
import type { NextFunction, Request, Response } from 'express';
import type { FaultInjector } from './faultRates';
import { loseResponse } from './responseLost';
import { matchesPattern } from './routeMatch';
import type { SimulatorStore } from './store';

function injectStatus(res: Response, status: number, retryAfter: string | undefined): void {
  if (retryAfter !== undefined) res.setHeader('Retry-After', retryAfter);
  res.status(status).json({ error: 'injected_fault', message: `Injected fault: HTTP ${status}` });
}

export function scriptedFaults(store: SimulatorStore) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const fault = store.faults.find((f) => f.times > 0 && f.method === req.method && matchesPattern(f.path, req.path));
    if (!fault) return next();
    fault.times--;
    if (fault.response_lost) {
      loseResponse(store, req, res);
      return next();
    }
    injectStatus(res, fault.status as number, fault.retry_after);
  };
}

/** Rate-based API faults (latency, 5xx, 429 with Retry-After, lost answers), drawn from the seeded injector. */
export function apiFaultRates(store: SimulatorStore, faults: FaultInjector) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    for (const fault of faults.apiFaults({ method: req.method, path: req.path })) {
      if (fault.kind === 'latency') {
        await new Promise((r) => setTimeout(r, fault.ms));
      } else if (fault.kind === 'response_lost') {
        loseResponse(store, req, res);
      } else {
        return injectStatus(res, fault.status, fault.retryAfter);
      }
    }
    next();
  };
}
