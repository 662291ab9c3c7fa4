/**
 * Schemathesis's failures, one line each ("GET /v1/cases: ST112 Response time limit exceeded [200]"),
 * from its report's FAILURES section: an operation's heading, then its checks ("- …") and the
 * status each answer had ("[409] Conflict:").
 */
export function failuresIn(report: string): string[] {
  const section = /=+ FAILURES =+\n([\s\S]*?)\n=+ (?:WARNINGS|SUMMARY) =+/.exec(report)?.[1];
  if (!section) return ['(no FAILURES section: see the output)'];
  const lines: string[] = [];
  let operation = '';
  let checks: string[] = [];
  const flush = (status: string) => {
    for (const check of checks) lines.push(`${operation}: ${check} ${status}`.trim());
    checks = [];
  };
  for (const line of section.split('\n')) {
    const heading = /^_+ (.+?) _+$/.exec(line);
    if (heading) {
      flush('');
      operation = heading[1] ?? '';
      continue;
    }
    const check = /^- (.+)$/.exec(line);
    if (check) {
      checks.push(check[1] ?? '');
      continue;
    }
    const status = /^\[(\d{3})\]/.exec(line);
    if (status) flush(`[${status[1]}]`);
  }
  flush('');
  return lines;
}
