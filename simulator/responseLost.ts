/**
 * The response-lost fault: the call is handled in full (the resource is created, jobs and webhooks
 * follow), then the connection is destroyed before any byte of the answer is written, as when a
 * provider commits and the network drops the answer. The client sees a socket error and cannot
 * tell whether anything happened; only a retry with the same `Idempotency-Key` tells it.
 */
import type { Request, Response } from 'express';
import { isCreatingCall } from './idempotency';
import { logRequest } from './requestLog';
import type { SimulatorStore } from './store';

/**
 * Replaces the ways a response reaches the socket (`writeHead`, `write`, `flushHeaders`, `end`)
 * with a cut: express only buffers headers until one of them runs, so nothing has been sent yet.
 */
export function loseResponse(store: SimulatorStore, req: Request, res: Response): void {
  let cut = false;
  const cutConnection = () => {
    if (cut) return;
    cut = true;
    logRequest(store, req, res, { response_lost: true });
    (res.socket ?? req.socket).destroy();
  };
  res.writeHead = (() => {
    cutConnection();
    return res;
  }) as unknown as Response['writeHead'];
  res.flushHeaders = () => cutConnection();
  res.write = (() => {
    cutConnection();
    return false;
  }) as Response['write'];
  res.end = (() => {
    cutConnection();
    return res;
  }) as Response['end'];
}

type Writer = 'writeHead' | 'flushHeaders' | 'write' | 'end';
const writers: Writer[] = ['writeHead', 'flushHeaders', 'write', 'end'];

/**
 * The creation-answer-lost fault: like `loseResponse`, but only for a creating call whose handler
 * answered 2xx, i.e. created something. A refusal (4xx, 5xx) is answered as usual. The decision is
 * taken when the answer first reaches the socket, from the status it carries.
 */
export function loseAnswerOfCreation(store: SimulatorStore, req: Request, res: Response): void {
  if (!isCreatingCall(req.method, req.path)) return;
  const originals = Object.fromEntries(writers.map((name) => [name, res[name]])) as Pick<Response, Writer>;
  let decided = false;
  for (const name of writers) {
    res[name] = ((...args: unknown[]) => {
      if (!decided) {
        decided = true;
        Object.assign(res, originals);
        const status = name === 'writeHead' && typeof args[0] === 'number' ? args[0] : res.statusCode;
        if (status >= 200 && status < 300) loseResponse(store, req, res);
      }
      return (res[name] as (...a: unknown[]) => unknown)(...args);
    }) as never;
  }
}
