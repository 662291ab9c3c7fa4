/**
 * Renewing a closed case's evidence on demand (`POST /v1/cases/{caseId}/refresh`, `journey
 * refresh`): a new run of the journey, started as `journey retry` starts one (journeyRetry.ts), in
 * which the steps of the named evidence kinds run as a new need (a new purchase key, so bought
 * anew: client/purchaseKey.ts) and every other step is carried over, so nothing else is bought
 * again. A step that depends on a renewed one (affordability on banking) is renewed with it unless
 * it was waived: the journey's own rule for a dependency that runs again, as the dependant was
 * computed from what is being replaced.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import { evidenceKindOfStep, evidenceKinds, type EvidenceKind } from './evidenceValidity';
import type { EvidenceRefreshRequest } from './evidenceRefreshRequest';
import type { CarryOver, ValidOnboardCaseInput } from './journeyInput';
import type { JourneyStatus } from './journeyMessages';
import { journeyHandle, type JourneyReadContext, type OperatorActionOptions } from './journeyOperations';
import { carriedStep, closedStatus, originalInput, startNewRun } from './journeyRetry';
import { RequestIdReusedError } from './journeyErrors';
import { auditedIdentity } from './operatorIdentity';

/** Why a refresh is refused: the case runs, some step of it did not settle, or it never had an item. */
export type RefreshRefusal = 'case_running' | 'case_unsettled' | 'item_not_in_case';

export class EvidenceRefreshRefusedError extends Error {
  override name = 'EvidenceRefreshRefusedError';

  constructor(
    readonly code: RefreshRefusal,
    message: string,
  ) {
    super(message);
  }
}

const renewedStepSchema = z.object({
  step: z.string(),
  kind: z.enum(Object.keys(evidenceKinds) as [EvidenceKind, ...EvidenceKind[]]),
  /** The need the step's new attempt buys (client/purchaseKey.ts). */
  need: z.number().int(),
  /** Why a step not named is renewed: the step it depends on is. */
  because: z.string().optional(),
});
export type RenewedStep = z.infer<typeof renewedStepSchema>;

/** What a refresh renews and carries over, and the run it started. */
export const evidenceRefreshAnswerSchema = z.object({
  caseId: z.string(),
  items: z.array(renewedStepSchema.shape.kind),
  renewed: z.array(renewedStepSchema),
  carriedOver: z.array(z.string()),
  runId: z.string(),
});
export type EvidenceRefreshAnswer = z.infer<typeof evidenceRefreshAnswerSchema>;

/** What a refresh would do, and the input of the run it would start. */
export type EvidenceRefreshPlan = Omit<EvidenceRefreshAnswer, 'runId'> & { input: ValidOnboardCaseInput };

/** The memo a refresh keeps on the run it started: a repeat of the request finds its answer there. */
const refreshMemoKey = 'evidenceRefresh';
const refreshMemoSchema = z.object({
  requestId: z.string(),
  answer: evidenceRefreshAnswerSchema.omit({ runId: true }),
});

/** What a refresh of the closed case would do (nothing is started). */
export async function planEvidenceRefresh(
  ctx: JourneyReadContext,
  caseId: string,
  request: Pick<EvidenceRefreshRequest, 'items'>,
): Promise<EvidenceRefreshPlan> {
  const status = await closedStatus(ctx, caseId, runningRefusal);
  refuseUnsettled(caseId, status);
  const renewing = stepsToRenew(caseId, status, request.items);
  const needs = await lastNeeds(ctx, caseId, status);
  const carry: CarryOver = { steps: {}, attempts: {}, purchases: {} };
  const renewed: RenewedStep[] = [];
  const carriedOver: string[] = [];
  for (const [key, step] of Object.entries(status.steps)) {
    const need = needs.get(key) ?? 0;
    carry.attempts[key] = step.attempt ?? 0;
    const renewal = renewing.get(key);
    if (!renewal) {
      carry.steps[key] = carriedStep(step);
      // The step keeps its need, so that a later refresh of it buys the one after.
      if (need > 0) carry.purchases[key] = { need, providerIds: {}, openRequests: [] };
      carriedOver.push(key);
      continue;
    }
    // The last need is spent: the new attempt buys the next one and continues nothing the provider holds.
    if (need > 0) carry.purchases[key] = { need, needSpent: true, providerIds: {}, openRequests: [] };
    renewed.push({ step: key, ...renewal, need: need + 1 });
  }
  const input = { ...(await originalInput(ctx, caseId)), carryOver: carry };
  return { caseId, items: request.items, renewed, carriedOver, input };
}

/**
 * Renews the items: starts the new run and audits the action under the caller's identity. With an
 * Update id (an Idempotency-Key, a `--request-id`), a repeat answers the first refresh's answer
 * and starts nothing, while that run is the case's latest.
 */
export async function refreshEvidence(
  ctx: JourneyReadContext,
  caseId: string,
  request: EvidenceRefreshRequest,
  options: OperatorActionOptions = {},
): Promise<EvidenceRefreshAnswer> {
  const identity = auditedIdentity(options);
  const entry = { caseId, action: 'refreshEvidence' as const, reason: request.reason, ...identity };
  try {
    const answer =
      (await earlierRefresh(ctx, caseId, options.updateId, request.items)) ??
      (await startRefresh(ctx, await planEvidenceRefresh(ctx, caseId, request), options.updateId));
    // A repeat's entry is the first one's (same request id): the audit trail appends nothing.
    await ctx.readModel.appendAudit({ ...entry, step: stepsOf(answer), outcome: 'accepted' });
    return answer;
  } catch (error) {
    if (error instanceof EvidenceRefreshRefusedError || error instanceof RequestIdReusedError)
      await ctx.readModel.appendAudit({ ...entry, outcome: 'refused', message: error.message });
    throw error;
  }
}

async function startRefresh(
  ctx: JourneyReadContext,
  plan: EvidenceRefreshPlan,
  updateId: string | undefined,
): Promise<EvidenceRefreshAnswer> {
  const { input, ...summary } = plan;
  const memo = updateId ? { [refreshMemoKey]: { requestId: updateId, answer: summary } } : undefined;
  try {
    return { ...summary, runId: await startNewRun(ctx, plan.caseId, input, memo) };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // Another request started a run first: the same request's repeat answers it, another is refused.
    const first = await earlierRefresh(ctx, plan.caseId, updateId, plan.items);
    if (first) return first;
    throw runningRefusal(plan.caseId);
  }
}

/** The answer of the refresh that started the case's latest run under `updateId`, if it did. */
async function earlierRefresh(
  ctx: JourneyReadContext,
  caseId: string,
  updateId: string | undefined,
  items: EvidenceKind[],
): Promise<EvidenceRefreshAnswer | undefined> {
  if (!updateId) return undefined;
  const description = await journeyHandle(ctx, caseId).describe();
  const memo = refreshMemoSchema.safeParse(description.memo?.[refreshMemoKey]);
  if (!memo.success || memo.data.requestId !== updateId) return undefined;
  const first = memo.data.answer;
  if (first.items.join() !== items.join())
    throw new RequestIdReusedError(updateId, `refresh of ${first.items.join(', ')}`, `refresh of ${items.join(', ')}`);
  return { ...first, runId: description.runId };
}

const runningRefusal = (caseId: string) =>
  new EvidenceRefreshRefusedError(
    'case_running',
    `case/${caseId} is running: refresh renews the evidence of a closed case; ` +
      'on a running journey, retry the step with fresh instead',
  );

/** Every step of the case must have completed or been waived: a refresh buys nothing but the items. */
function refuseUnsettled(caseId: string, status: JourneyStatus): void {
  const unsettled = Object.entries(status.steps).filter(([, s]) => s.state !== 'completed' && s.state !== 'waived');
  if (unsettled.length === 0) return;
  throw new EvidenceRefreshRefusedError(
    'case_unsettled',
    `case/${caseId} closed with steps that did not complete (${unsettled.map(([k, s]) => `${k}: ${s.state}`).join(', ')}): ` +
      'refresh renews the evidence of a case whose steps all completed or were waived; journey retry runs the others again',
  );
}

/** The steps the items name, and those that depend on one of them (and are not waived), by step key. */
function stepsToRenew(
  caseId: string,
  status: JourneyStatus,
  items: readonly EvidenceKind[],
): Map<string, Pick<RenewedStep, 'kind' | 'because'>> {
  const keys = Object.keys(status.steps);
  const missing = items.filter((item) => !keys.some((key) => evidenceKindOfStep(key) === item));
  if (missing.length > 0) {
    const had = [...new Set(keys.map(evidenceKindOfStep).filter((k) => k !== undefined))];
    throw new EvidenceRefreshRefusedError(
      'item_not_in_case',
      `case ${caseId} has no ${missing.join(', ')} evidence to renew: ` +
        `its items are ${had.length ? had.join(', ') : 'none'}`,
    );
  }
  const renewing = new Map<string, Pick<RenewedStep, 'kind' | 'because'>>();
  for (const key of keys) {
    const kind = evidenceKindOfStep(key);
    if (kind && items.includes(kind)) renewing.set(key, { kind });
  }
  for (const [key, step] of Object.entries(status.steps)) {
    const kind = evidenceKindOfStep(key);
    if (renewing.has(key) || !kind || !step.dependsOn || step.state === 'waived') continue;
    if (renewing.has(step.dependsOn)) renewing.set(key, { kind, because: `${step.dependsOn} is renewed` });
  }
  return renewing;
}

/**
 * The last need each step bought: the most the status and the case file's purchase ledger know
 * (a step a `journey retry` carried over shows no need; the ledger still holds its purchases).
 */
async function lastNeeds(ctx: JourneyReadContext, caseId: string, status: JourneyStatus): Promise<Map<string, number>> {
  const needs = new Map<string, number>();
  const raise = (key: string, need: number | undefined) => needs.set(key, Math.max(needs.get(key) ?? 0, need ?? 0));
  for (const [key, step] of Object.entries(status.steps)) {
    raise(key, step.need);
    for (const attempt of step.attempts ?? []) raise(key, attempt.need);
  }
  for (const purchase of await ctx.readModel.purchases(caseId)) raise(purchase.step, purchase.need);
  return needs;
}

const stepsOf = (answer: EvidenceRefreshAnswer) => answer.renewed.map((r) => r.step).join(', ');
