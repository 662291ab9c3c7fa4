/**
 * What the Temporal Web UI shows of a journey and its steps beside their ids: a static summary set
 * when the workflow starts ("case 42 · onboarding", "banking · attempt 2 · case 42") and current
 * details kept up to date while it runs ("needs_attention · 3 of 5 steps done · banking: …").
 * Ids and states only: no applicant data (and the codec encrypts both like every payload).
 */
export const journeySummary = (caseId: string): string => `case ${caseId} · onboarding`;

export const stepSummary = (caseId: string, stepKey: string, attempt: number): string =>
  `${stepKey} · attempt ${attempt} · case ${caseId}`;

/** One line: the state, and the reason when there is one (cut short: the Web UI shows one line). */
export function currentDetails(state: string, reason?: string | null, progress?: string): string {
  const parts = [state, progress, reason ?? undefined].filter((p): p is string => Boolean(p));
  const line = parts.join(' · ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
