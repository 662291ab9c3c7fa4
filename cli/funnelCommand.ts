/**
 * `journey funnel [--from <day>] [--to <day>] [--group-by week] [--csv]`: where applicants drop
 * off (case-file/funnel.ts), read from the case file alone (no Temporal connection): a table per
 * period and one for the whole range, the figures as CSV with --csv, or as JSON with --json (the
 * same document as GET /v1/analytics/funnel). The range is checked before anything connects.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import type { Funnel, FunnelStep } from '../case-file/funnel';
import { funnelCsv } from '../case-file/funnelCsv';
import { checkFunnelRange, funnelQueryFields, funnelQueryOf } from '../case-file/funnelQuery';
import { readFunnel } from '../case-file/funnel';
import { inTransaction } from '../case-file/transaction';
import { describeIssues } from '../provider';
import type { LocalRun } from './journeyProgram';
import { JourneyCommandError } from './journeyInputFile';
import { textTable } from './textTable';

const optionsSchema = z.object(funnelQueryFields).superRefine(checkFunnelRange);
const optionNames: Record<string, string> = { from: '--from', to: '--to', groupBy: '--group-by' };

interface FunnelOptions {
  from?: string;
  to?: string;
  groupBy?: string;
  csv?: boolean;
}

export function addFunnelCommand(command: Command, chosenLocal: (run: LocalRun) => void): Command {
  return command
    .option('--from <day>', 'the first day whose started cases count, YYYY-MM-DD (UTC; default: 12 weeks up to --to)')
    .option('--to <day>', 'the last day whose started cases count, YYYY-MM-DD (UTC; default: today)')
    .option('--group-by <period>', 'day, week or month', 'week')
    .option('--csv', 'print the figures as CSV')
    .action((options: FunnelOptions) => {
      const parsed = optionsSchema.safeParse({ from: options.from, to: options.to, groupBy: options.groupBy });
      if (!parsed.success) {
        const problems = describeIssues(parsed.error).map((p) =>
          p.replace(/^(\w+)/, (name) => optionNames[name] ?? name),
        );
        throw new JourneyCommandError(problems.join('; '));
      }
      chosenLocal(async (local) => {
        const store = await local.caseFile();
        const funnel = await inTransaction(store.pool, (c) => readFunnel(c, funnelQueryOf(parsed.data)));
        return { text: options.csv ? funnelCsv(funnel).trimEnd() : formatFunnel(funnel), json: funnel };
      });
    });
}

const minutes = (seconds: number | null) => (seconds === null ? '–' : `${Math.round(seconds / 6) / 10}m`);
const pair = (t: FunnelStep['timeInStep']) => `${minutes(t.medianSeconds)}/${minutes(t.p90Seconds)}`;
const headers = [
  'step',
  'reached',
  'completed',
  'waived',
  'expired',
  'attention',
  'unfinished',
  'in step',
  'applicant',
  'provider',
  'operator',
  'first action',
];

function stepTable(steps: FunnelStep[]): string {
  if (steps.length === 0) return '  no step reached';
  const rows = steps.map((s) => [
    s.step,
    ...[s.reached, s.completed, s.waived, s.expired, s.needsAttention, s.unfinished].map(String),
    ...[s.timeInStep, s.waitingOnApplicant, s.waitingOnProvider, s.waitingOnOperator, s.firstAction].map(pair),
  ]);
  return textTable(headers, rows);
}

export function formatFunnel(funnel: Funnel): string {
  const periods = funnel.periods.map(
    (p) => `${funnel.groupBy} from ${p.period}: ${p.cases} case(s)\n${stepTable(p.steps)}`,
  );
  const title = `cases started ${funnel.from} to ${funnel.to}: ${funnel.total.cases} (times: median/p90, minutes)`;
  return [`${title}\n${stepTable(funnel.total.steps)}`, ...periods].join('\n\n');
}
