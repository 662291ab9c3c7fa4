/**
 * Rows whose personal and financial fields are sealed (fieldCipher.ts) in a `sealed` bytea column as
 * one JSON object, their plain columns left NULL (migration 011). Rows written before the case file
 * encrypted have no `sealed` and their plain columns: reading accepts both.
 */
import type { FieldCipher } from './fieldCipher';

type Row = Record<string, unknown>;

export function sealJson(cipher: FieldCipher, value: unknown): Buffer {
  return cipher.seal(Buffer.from(JSON.stringify(value), 'utf8'));
}

export function openJson(cipher: FieldCipher, sealed: Buffer): unknown {
  return JSON.parse(cipher.open(sealed).toString('utf8')) as unknown;
}

/** The row with its sealed fields in place of the NULL plain columns, and without `sealed`. */
export function openRow<T extends object>(cipher: FieldCipher, row: T): T {
  const { sealed, ...plain } = row as Row;
  if (!Buffer.isBuffer(sealed)) return plain as T;
  return { ...plain, ...(openJson(cipher, sealed) as Row) } as T;
}

export function openRows<T extends object>(cipher: FieldCipher, rows: readonly T[]): T[] {
  return rows.map((row) => openRow(cipher, row));
}
