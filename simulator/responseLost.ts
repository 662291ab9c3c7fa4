/**
 * The response-lost fault: the call is handled in full (the resource is created, jobs and webhooks
 * follow), then the connection is destroyed before any byte of the answer is written, as when a
 * provider commits and the network drops the answer. The client sees a socket error and cannot
 * tell whether anything happened; only a retry with the same `Idempotency-Key` tells it.
 */
import type { Request, Response } from 'express';
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
