/**
 * docs/reliability.md holds the soak's report and, below it, the fault suite's record (written by
 * hand from `npm run test:faults` runs). A new soak report replaces its own part and keeps that one.
 */
export const FAULT_SUITE_HEADING = '## The fault suite';

export function withFaultSuiteSection(report: string, previous: string | undefined): string {
  const at = previous?.indexOf(`\n${FAULT_SUITE_HEADING}`) ?? -1;
  return at < 0 ? report : `${report.trimEnd()}\n${previous!.slice(at)}`;
}
