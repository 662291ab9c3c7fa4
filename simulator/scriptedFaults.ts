/**
 * Scripted and rate-based API faults: a test says "the next N calls to this route answer S" (with
 * `Retry-After` when given), "lose their answer", "lose their answer if they created something"
 * or "answer after M ms"; the seeded injector draws latency, 5xx, 429 and lost answers by rate.
 *
 * Latency is applied to the answer, not to the request: a call is read and handled as it arrives
 * (its resource created, its jobs and webhooks begun), and its answer is held back for the delay,
 * then sent, or, with a lost answer, cut. A client that gives up during the delay (a timeout, an
 * abort) has still had its request carried out, as with a real provider.
 */
import type { NextFunction, Request, Response } from 'express';
import type { FaultInjector } from './faultRates';
import { loseAnswerOfCreation, loseResponse } from './responseLost';
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
    // The cut first, so that the hold wraps it: a lost answer is lost after the delay.
    if (fault.response_lost) loseResponse(store, req, res);
    if (fault.creation_answer_lost) loseAnswerOfCreation(store, req, res);
    if (fault.latency_ms !== undefined) holdResponse(res, fault.latency_ms);
    if (fault.status !== undefined) return injectStatus(res, fault.status, fault.retry_after);
    next();
  };
}

/** Rate-based API faults (latency, 5xx, 429 with Retry-After, lost answers), drawn from the seeded injector. */
export function apiFaultRates(store: SimulatorStore, faults: FaultInjector) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const drawn = faults.apiFaults({ method: req.method, path: req.path });
    // The cut first, so that the hold below wraps it: a lost answer is lost after the delay.
    if (drawn.some((f) => f.kind === 'response_lost')) loseResponse(store, req, res);
    else if (drawn.some((f) => f.kind === 'creation_answer_lost')) loseAnswerOfCreation(store, req, res);
    for (const fault of drawn) if (fault.kind === 'latency') holdResponse(res, fault.ms);
    for (const fault of drawn) if (fault.kind === 'status') return injectStatus(res, fault.status, fault.retryAfter);
    next();
  };
}

/**
 * Holds back what reaches the socket (`writeHead`, `flushHeaders`, `write`, `end`) until `ms` after
 * the call arrived, then lets it through in order; the handler runs meanwhile. Whatever those were
 * before (a lost answer's cut) runs at the release. The answer is complete before the release, so
 * the idempotency record (installed after this) keeps it at once: a retry during the delay is
 * answered the same resource.
 */
export function holdResponse(res: Response, ms: number): void {
  const held: (() => void)[] = [];
  let released = false;
  const release = setTimeout(() => {
    released = true;
    for (const call of held.splice(0)) call();
  }, ms);
  // A client that gave up (or a simulator stopping) closes the connection first: nothing is left to
  // release, and a pending release would keep a stopped simulator's process alive for the delay.
  res.once('close', () => {
    if (!released) clearTimeout(release);
  });
  const hold = <K extends 'writeHead' | 'flushHeaders' | 'write' | 'end'>(name: K, heldResult: () => unknown) => {
    const original = (res[name] as (...args: unknown[]) => unknown).bind(res);
    res[name] = ((...args: unknown[]) => {
      if (released) return original(...args);
      held.push(() => original(...args));
      return heldResult();
    }) as Response[K];
  };
  hold('writeHead', () => res);
  hold('flushHeaders', () => undefined);
  hold('write', () => true);
  hold('end', () => res);
}
