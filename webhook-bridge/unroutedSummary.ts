/**
 * What an operator needs of a delivery nobody claims, and nothing more: its size, its top-level
 * field names and the id-like fields it carries (`id`, `*_id`), bounded in count and length.
 * Unrouted deliveries of all cases share workflows, so they must carry no personal data and stay
 * small whatever was sent.
 */
const MAX_FIELDS = 20;
const MAX_IDS = 10;
const MAX_TEXT = 100;
const MAX_DEPTH = 3;
const MAX_PROBLEMS = 5;
const MAX_PROBLEM = 200;

export interface UnroutedSummary {
  [key: string]: unknown;
  trimmed: true;
  bytes: number;
  fields: string[];
  ids: Record<string, string>;
}

const clip = (text: string, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max)}…` : text);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isIdField = (key: string) => key === 'id' || key.endsWith('_id');

/** Id-like fields, by dotted path, depth-first, at most MAX_IDS. */
function collectIds(value: unknown, prefix: string, depth: number, ids: Record<string, string>): void {
  if (!isRecord(value) || depth > MAX_DEPTH) return;
  for (const [key, field] of Object.entries(value)) {
    if (Object.keys(ids).length >= MAX_IDS) return;
    const at = clip(prefix ? `${prefix}.${key}` : key);
    if (isIdField(key) && (typeof field === 'string' || typeof field === 'number')) ids[at] = clip(String(field));
    else collectIds(field, at, depth + 1, ids);
  }
}

export function summariseUnrouted(data: unknown): UnroutedSummary {
  const ids: Record<string, string> = {};
  collectIds(data, '', 0, ids);
  return {
    trimmed: true,
    bytes: Buffer.byteLength(JSON.stringify(data) ?? ''),
    fields: isRecord(data)
      ? Object.keys(data)
          .slice(0, MAX_FIELDS)
          .map((k) => clip(k))
      : [],
    ids,
  };
}

/** Schema problems name fields, not values; they are still bounded. */
export function trimProblems(problems: readonly string[]): string[] {
  return problems.slice(0, MAX_PROBLEMS).map((p) => clip(p, MAX_PROBLEM));
}
