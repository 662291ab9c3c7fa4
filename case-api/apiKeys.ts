/**
 * Bearer API keys of the case API. Keys are kept only as SHA-256 hashes: configuration carries the
 * hash, and a presented key is hashed and compared in constant time against every known hash, so
 * neither the comparison's timing nor a leaked configuration gives a usable key away.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const apiRoles = ['origination', 'operator'] as const;
export type ApiRole = (typeof apiRoles)[number];

export interface ApiKeyEntry {
  /** A label for logs and audit (never the key). */
  name: string;
  role: ApiRole;
  /** SHA-256 of the key, 32 bytes. */
  hash: Buffer;
  /**
   * Roles beyond the API role, which decide finer permissions: the one in `CASE_API_WAIVE_ROLE`
   * may waive steps (config.ts). Given as `<name>:operator+<role>+…:<hash>`.
   */
  roles?: string[];
  /**
   * An origination key that sees only the cases it started (`CASE_API_SCOPED_KEYS`, config.ts):
   * lists, reads, evidence, timelines and events of its own cases; another key's case is not found.
   * Unset: every case, as operator keys always do.
   */
  scoped?: boolean;
}

export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export function generateApiKey(role: ApiRole): string {
  // The prefix tells a reader which role a key has without revealing anything secret.
  return `vj_${role === 'operator' ? 'op' : 'or'}_${randomBytes(24).toString('base64url')}`;
}

const entrySchema = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9._-]{1,64}:(origination|operator)(\+[A-Za-z0-9._-]{1,64}){0,16}:[0-9a-f]{64}$/,
    'each entry must be <name>:<origination|operator>[+<role>…]:<sha256 hex of the key>',
  )
  .transform((entry): ApiKeyEntry => {
    const [name, roles, hex] = entry.split(':') as [string, string, string];
    const [role, ...more] = roles.split('+') as [ApiRole, ...string[]];
    return { name, role, hash: Buffer.from(hex, 'hex'), roles: more };
  });

/** `CASE_API_KEYS`: comma-separated `<name>:<role>[+<role>…]:<sha256 hex>` entries. */
export const apiKeyListSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
  )
  .pipe(z.array(entrySchema).min(1, 'needs at least one <name>:<role>:<sha256 hex> entry'));

/** The role names a role-checking option takes (`CASE_API_WAIVE_ROLE`, roles in key entries and ID tokens). */
export const roleNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a role name (letters, digits, . _ -)');

/**
 * Whether an operator with these roles may waive a step: anyone when no waive role is configured
 * (the embedded default, and deployments that do not separate the duty), else those who hold it.
 */
export const mayWaive = (waiveRole: string | undefined, roles: readonly string[] | undefined) =>
  !waiveRole || (roles ?? []).includes(waiveRole);

/** The entry whose hash matches the presented key, or null. Every entry is compared, match or not. */
export function findApiKey(entries: readonly ApiKeyEntry[], presented: string): ApiKeyEntry | null {
  const hash = hashApiKey(presented);
  let found: ApiKeyEntry | null = null;
  for (const entry of entries) {
    if (timingSafeEqual(entry.hash, hash) && !found) found = entry;
  }
  return found;
}

/** `CASE_API_SCOPED_KEYS`: comma-separated names of the origination keys scoped to their own cases. */
export const scopedKeyNamesSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be key names, comma-separated')));

/**
 * The entries with the named ones scoped; a problem for each name that is no configured key, or
 * names an operator key (operators work on every case).
 */
export function scopeKeys(
  entries: readonly ApiKeyEntry[],
  names: readonly string[],
): { keys: ApiKeyEntry[]; problems: string[] } {
  const problems = names.flatMap((name) => {
    const entry = entries.find((e) => e.name === name);
    if (!entry) return [`no key is named ${name}`];
    return entry.role === 'operator' ? [`${name} is an operator key; only origination keys can be scoped`] : [];
  });
  const scoped = new Set(names);
  return { keys: entries.map((e) => (scoped.has(e.name) ? { ...e, scoped: true } : e)), problems };
}
