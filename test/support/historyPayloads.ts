/**
 * Every payload a history holds (inputs, results, signals, markers, failures' encoded
 * attributes, headers), found by walking its events, with its size as stored (encrypted) and as
 * decoded by the codec: what the SDK and the server weigh against their payload limits.
 */
import type { PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

type Payload = temporal.api.common.v1.IPayload;

export interface PayloadSizes {
  payloads: number;
  largestEncoded: number;
  largestDecoded: number;
  totalEncoded: number;
  totalDecoded: number;
  /** The whole history, serialised. */
  historyBytes: number;
}

const isPayload = (value: unknown): value is Payload =>
  typeof value === 'object' && value !== null && (value as Payload).data instanceof Uint8Array && 'metadata' in value;

function collect(value: unknown, into: Payload[]): void {
  if (isPayload(value)) {
    into.push(value);
    return;
  }
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return;
  for (const child of Object.values(value)) collect(child, into);
}

const sizeOf = (payload: Payload) => temporal.api.common.v1.Payload.encode(payload).finish().length;

export async function payloadSizes(
  history: temporal.api.history.v1.IHistory,
  codec: PayloadCodec,
): Promise<PayloadSizes> {
  const found: Payload[] = [];
  for (const event of history.events ?? []) collect(event, found);
  const decoded = found.length ? await codec.decode(found.map((p) => temporal.api.common.v1.Payload.create(p))) : [];
  const encodedSizes = found.map(sizeOf);
  const decodedSizes = decoded.map(sizeOf);
  return {
    payloads: found.length,
    largestEncoded: Math.max(0, ...encodedSizes),
    largestDecoded: Math.max(0, ...decodedSizes),
    totalEncoded: encodedSizes.reduce((a, b) => a + b, 0),
    totalDecoded: decodedSizes.reduce((a, b) => a + b, 0),
    historyBytes: temporal.api.history.v1.History.encode(history).finish().length,
  };
}
