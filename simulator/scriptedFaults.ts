/**
 * Scripted faults and the request log: a test says "the next N calls to this route answer S"
 * (with `Retry-After` when given), and reads back every API call with its time and status.
 */
import type { NextFunction, Request, Response } from 'express';
import type { FaultInjector } from './faultRates';
import type { SimulatorStore } from './store';

function matches(pattern: string, path: string): boolean {
  const regex = new RegExp(`^${pattern.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
  return regex.test(path);
}

/** Logs each API call once its answer is sent. Mounted before authentication, so refusals are logged too. */
export function requestLog(store: SimulatorStore) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const at = Date.now();
    res.on('finish', () => store.requests.push({ method: req.method, path: req.path, at, status: res.statusCode }));
    next();
  };
}

export function scriptedFaults(store: SimulatorStore) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const fault = store.faults.find((f) => f.times > 0 && f.method === req.method && matches(f.path, req.path));
    if (!fault) return next();
    fault.times--;
    if (fault.retry_after !== undefined) res.setHeader('Retry-After', fault.retry_after);
    res.status(fault.status).json({ error: 'injected_fault', message: `Injected fault: HTTP ${fault.status}` });
  };
}

/** Rate-based API faults (latency, 5xx, 429 with Retry-After), drawn from the seeded injector. */
export function apiFaultRates(faults: FaultInjector) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    for (const fault of faults.apiFaults()) {
      if (fault.kind === 'latency') {
        await new Promise((r) => setTimeout(r, fault.ms));
        continue;
      }
      if (fault.retryAfter !== undefined) res.setHeader('Retry-After', fault.retryAfter);
      res.status(fault.status).json({ error: 'injected_fault', message: `Injected fault: HTTP ${fault.status}` });
      return;
    }
    next();
  };
}
