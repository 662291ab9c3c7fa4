/** The soak's report, as docs/reliability.md: the figures, the command and the machine. */
import os from 'node:os';
import type { DeliveryLogEntry } from '../../simulator/store';
import type { JourneyStatus } from '../../client/journeyMessages';
import type { LedgerReport } from '../../test/support/faultHarness/deliveryLedger';
import type { JourneyPlan } from '../../test/support/faultHarness/faultJourneys';
import type { AuditResult } from './journeyAudit';
import type { ProcessFigures } from './processSampler';

export interface SoakFigures {
  command: string;
  journeys: number;
  faults: Record<string, number>;
  plan: JourneyPlan;
  wallSeconds: number;
  outcomes: JourneyStatus[];
  applicantFailures: number;
  deliveries: DeliveryLogEntry[];
  ledger: LedgerReport;
  audit: AuditResult;
  resourcesSettledByPolling: number;
  processes: ProcessFigures[];
  /** Resource workflows whose state query failed at the end (not in the ledger figures). */
  unreadableResources: number;
}

const count = <T>(items: T[], key: (item: T) => string) => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

const table = (counts: Record<string, number>, what: string) =>
  [
    `| ${what} | count |`,
    '|---|---|',
    ...Object.entries(counts)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `| ${k} | ${n} |`),
  ].join('\n');

export function renderReport(f: SoakFigures): string {
  const steps = f.outcomes.flatMap((o) =>
    Object.entries(o.steps).map(([key, s]) => `${key.split('/')[0]}: ${s.state}`),
  );
  const answered2xx = f.deliveries.filter((d) => d.status !== null && d.status >= 200 && d.status < 300).length;
  const lost = f.deliveries.filter((d) => d.outcome === 'dropped' || d.outcome === 'failed').length;
  const cpus = os.cpus();
  return `# Reliability: the soak

Produced by \`${f.command}\` (bench/soak.ts) on ${new Date().toISOString().slice(0, 10)}; rerun it to refresh this file.

Machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}.
The machine is **shared with other engineers' builds and tests** (load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} at the end):
times, memory and CPU below are what this run saw, not a benchmark. The correctness figures (2xx not
applied, contradictions) must be 0 whatever the load.

## Set-up

- ${f.journeys} journeys at once, each: identity verification of one person, open banking with an
  affordability insight after it, an income and employer insight. The simulated applicant acts (IDV approved, bank connected) a random 0–20 s after
  the journey asks. Step deadlines ${f.plan.deadline}; reconciliation after ${f.plan.reconcileAfter} without a webhook.
- Faults on for the whole run: \`${JSON.stringify(f.faults)}\`.
- Temporal (embedded dev server, in memory) and the simulator run in the soak's process through
  \`startStack\`; the worker and the bridge are child processes. The worker is SIGKILLed and started
  again 30 s into the run, the bridge 15 s later (deliveries sent while it is down are refused: lost).
- Wall time: ${f.wallSeconds} s.

## Correctness

| figure | value |
|---|---|
| deliveries answered 2xx but not applied to a resource workflow | **${f.ledger.notApplied.length}** |
| occurrences applied twice to one resource | **${f.ledger.appliedTwice.length}** |
| tampered deliveries accepted | **${f.ledger.tamperedAccepted.length}** |
| journeys whose state contradicts the simulator's record | **${f.audit.contradictions.length}** |
| deliveries answered 2xx | ${answered2xx} |
| deliveries lost (dropped by the fault, or refused / unreachable) | ${lost} |
| resources whose outcome came from reconciliation polling first (recovered) | ${f.resourcesSettledByPolling} |
| banking steps expired because their outcome's webhook was lost (not pollable) | ${f.audit.bankingLostUnrecoverable} |
| applicants who could not act (journey never asked in time) | ${f.applicantFailures} |
| resource workflows whose state could not be read at the end (left out of the ledger) | ${f.unreadableResources} |
${
  f.audit.contradictions.length > 0
    ? `\nContradictions:\n\n${f.audit.contradictions
        .slice(0, 20)
        .map((c) => `- ${c}`)
        .join('\n')}\n`
    : ''
}
## Journeys by outcome

${table(
  count(f.outcomes, (o) => o.state),
  'journey state',
)}

${table(
  count(steps, (s) => s),
  'step: state',
)}

## Deliveries by outcome

${table(
  count(f.deliveries, (d) => `${d.outcome}${d.status ? ` ${d.status}` : ''}`),
  'outcome',
)}

${table(
  count(
    f.deliveries.flatMap((d) => d.faults),
    (x) => x,
  ),
  'injected fault',
)}

## Processes

| process | peak RSS (MiB) | CPU seconds | peak CPU (% of one core, 1 s) |
|---|---|---|---|
${f.processes.map((p) => `| ${p.name} | ${p.peakRssMiB} | ${p.cpuSeconds.toFixed(1)} | ${p.peakCpuPercent} |`).join('\n')}
`;
}
