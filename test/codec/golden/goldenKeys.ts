/**
 * The golden vectors' fixed test keys and values. These keys protect nothing: they exist only so
 * that ciphertext written by one version of the codec can be decrypted by every later one.
 */
import type { PayloadKey } from '../../../codec/payloadKeySchema';

const fixedKey = (byte: number) => Buffer.alloc(32, byte);

/** Two keys, the older one first (it encrypted the first half of the vectors). */
export const goldenKeys: readonly [PayloadKey, PayloadKey] = [
  { id: 'golden-2026-01', key: fixedKey(0x11) },
  { id: 'golden-2026-06', key: fixedKey(0x5a) },
];

export const goldenValues: { name: string; value: unknown }[] = [
  { name: 'a delivery', value: { eventType: 'IdentityVerification.Completed', person: { name: 'Ada Lovelace', person_id: 'p-1' } } },
  { name: 'unicode', value: { company: 'Zürich Ærø Ltd — 株式会社', amount: -1234.5 } },
  { name: 'null', value: null },
  { name: 'an empty string', value: '' },
  { name: 'a large array', value: Array.from({ length: 200 }, (_, i) => ({ i, description: `transaction ${i}` })) },
];

export interface GoldenVector {
  name: string;
  keyId: string;
  value: unknown;
  /** The payload as stored: metadata values and data in Base64. */
  encrypted: { metadata: Record<string, string>; data: string };
}
