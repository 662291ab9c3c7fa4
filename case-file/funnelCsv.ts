/**
 * The funnel (funnel.ts) as CSV: one line per period and step kind, then the whole range's under
 * the period `total`; times in seconds, empty where there is no figure. Every value is a number,
 * a date or a step kind, so nothing needs quoting.
 */
import type { Funnel, FunnelStep } from './funnel';

const timed = ['timeInStep', 'waitingOnApplicant', 'waitingOnProvider', 'waitingOnOperator', 'firstAction'] as const;
const counts = ['reached', 'completed', 'waived', 'expired', 'needsAttention', 'unfinished'] as const;

const header = [
  'period',
  'step',
  ...counts,
  ...timed.flatMap((t) => [`${t}Count`, `${t}MedianSeconds`, `${t}P90Seconds`]),
].join(',');

function line(period: string, step: FunnelStep): string {
  const times = timed.flatMap((t) => [step[t].count, step[t].medianSeconds ?? '', step[t].p90Seconds ?? '']);
  return [period, step.step, ...counts.map((c) => step[c]), ...times].join(',');
}

export function funnelCsv(funnel: Funnel): string {
  const lines = [
    ...funnel.periods.flatMap((p) => p.steps.map((s) => line(p.period, s))),
    ...funnel.total.steps.map((s) => line('total', s)),
  ];
  return `${[header, ...lines].join('\r\n')}\r\n`;
}
