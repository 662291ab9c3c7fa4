/**
 * Why Temporal did not take a delivery, classified by gRPC status code, because the answer decides
 * what the bridge does with it:
 * - `permanent`: INVALID_ARGUMENT (an id too long, a payload too large, …): retrying cannot cure
 *   it, so the delivery goes to the dead-letter store instead of blocking anything;
 * - `unavailable`: an answer that says Temporal as a whole is not taking anything (UNAVAILABLE) or
 *   refuses everyone (NOT_FOUND namespace, UNAUTHENTICATED, PERMISSION_DENIED): every delivery
 *   waits, with backoff;
 * - `uncertain`: no answer about Temporal at all (DEADLINE_EXCEEDED, CANCELLED, or no gRPC status,
 *   as when no connection could be made): one slow workflow looks like this too, so a cheap probe
 *   decides (temporalHealth.ts): Temporal away if it fails, else this delivery's resources wait;
 * - `resource`: anything else (RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, INTERNAL, …):
 *   retried, and only this delivery's resources wait.
 */
const INVALID_ARGUMENT = 3;
const WHOLE_SERVICE = new Set([5, 7, 14, 16]);
const NO_ANSWER = new Set([1, 4]);
const MAX_REASON = 300;

export interface Refusal {
  kind: 'permanent' | 'unavailable' | 'uncertain' | 'resource';
  grpcCode: number | null;
  /** The server's message, bounded (it names the limit that was hit, not payload data). */
  reason: string;
}

/** The gRPC status code of the error or of any error in its `cause` chain. */
export function grpcCodeOf(error: unknown): number | null {
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && Number.isInteger(code) && code >= 0 && code <= 16) return code;
  }
  return null;
}

export function classifyRefusal(error: unknown): Refusal {
  const grpcCode = grpcCodeOf(error);
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON);
  if (grpcCode === INVALID_ARGUMENT) return { kind: 'permanent', grpcCode, reason };
  if (grpcCode === null || NO_ANSWER.has(grpcCode)) return { kind: 'uncertain', grpcCode, reason };
  if (WHOLE_SERVICE.has(grpcCode)) return { kind: 'unavailable', grpcCode, reason };
  return { kind: 'resource', grpcCode, reason };
}
