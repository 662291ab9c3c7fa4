/**
 * Where two start requests differ, as field paths (`steps.banking`, `people`): objects are compared
 * field by field (in any order), anything else, lists included, as a whole.
 */
export function requestDifferences(first: unknown, second: unknown, path = ''): string[] {
  if (isRecord(first) && isRecord(second)) {
    const keys = [...new Set([...Object.keys(first), ...Object.keys(second)])].sort();
    return keys.flatMap((key) => requestDifferences(first[key], second[key], path ? `${path}.${key}` : key));
  }
  return sameValue(first, second) ? [] : [path || '(the request)'];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isRecord(a) && isRecord(b)) return requestDifferences(a, b).length === 0;
  return a === b;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
