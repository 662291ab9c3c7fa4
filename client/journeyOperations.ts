/**
 * The operations on journeys, in one place for every client (the case API, the console and the
 * `journey` CLI call these; none of them talks to the workflows another way): start a journey once
 * per case, read its status, list journeys a page at a time, and the operator actions on
 * `case/<caseId>` (docs/architecture.md).
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { CaseEventLog } from '../case-file/caseEventLog';
import { caseStartOf } from '../case-file/caseStarts';
import type { CaseListQuery } from '../case-file/caseQueue';
import type { CaseFileStore } from '../case-file/store';
import { describeIssues } from '../provider';
import { caseEventSettingsOf } from './caseEventTimes';
import { workflowClosing, workflowNotFound } from './grpcCode';
import { listCaseRows, readCaseStatus, type CaseListRow } from './caseReads';
import { JourneyClosedError, JourneyInputError, RequestIdReusedError } from './journeyErrors';
import { onboardCaseInputSchema, type ValidOnboardCaseInput } from './journeyInput';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  journeyWorkflowId,
  journeyWorkflowType,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type OnboardCaseWorkflow,
  type OperatorActionResult,
} from './journeyMessages';
import { journeySteps } from './journeyNames';
import { audited } from './operatorAudit';
import { auditedIdentity, type OperatorIdentity } from './operatorIdentity';
import { caseSearchAttributes } from './searchAttributes';
import { journeySummary } from './workflowMetadata';

export interface JourneyClientContext {
  client: Client;
  taskQueue: string;
  /**
   * The case file: starts record the case's parties there, and operator actions go into its audit
   * trail. Reading cases needs it (`JourneyReadContext`); replaying a case's histories does not.
   */
  readModel?: CaseFileStore;
}

/** Cases are read from the case file's read model, which every journey writes: no visibility list, no replay. */
export type JourneyReadContext = JourneyClientContext & { readModel: CaseFileStore };

export interface StartedJourney {
  caseId: string;
  workflowId: string;
  /** The run started now, or null when the case already had a journey. */
  runId: string | null;
  created: boolean;
}

/**
 * `assignee` when read from the read model (the `status` query does not know it); `reference`, the
 * lender's own id of the case, from its start (null: none).
 */
export type JourneyStatusView = JourneyStatus & {
  runStatus: string;
  runId: string;
  assignee?: string | null;
  reference?: string | null;
};

/** A case in a list: the read model's row (client/caseReads.ts). */
export type JourneySummary = CaseListRow;

/** The queue's filters (case-file/caseQueue.ts); only the read model answers them. */
export type JourneyListFilters = Pick<
  CaseListQuery,
  'step' | 'stepState' | 'waitingLongerThanMs' | 'name' | 'reference' | 'assignee' | 'sort' | 'startedBy'
>;

export interface JourneyPage {
  cases: JourneySummary[];
  nextPageToken: string | null;
}

/** The journey input checked with the one schema, its defaults applied; refused with every problem named. */
export function parseJourneyInput(raw: unknown): ValidOnboardCaseInput {
  const parsed = onboardCaseInputSchema.safeParse(raw);
  if (!parsed.success) throw new JourneyInputError(describeIssues(parsed.error));
  return parsed.data;
}

/**
 * Starts `case/<caseId>` once: a workflow id is never reused (REJECT_DUPLICATE), so a repeat finds
 * the existing journey and starts nothing. The journey receives the parsed input, and carries its
 * case id as a search attribute from the start.
 */
export async function startJourney(ctx: JourneyClientContext, raw: unknown): Promise<StartedJourney> {
  const input = parseJourneyInput(raw);
  const eventTimes = caseEventSettingsOf(raw);
  const workflowId = journeyWorkflowId(input.caseId);
  // Before the journey starts, so its first write finds the names to show and search.
  await ctx.readModel?.recordParties(input.caseId, partiesOf(input));
  if (eventTimes && ctx.readModel) await new CaseEventLog(ctx.readModel.pool).recordSettings(input.caseId, eventTimes);
  try {
    const handle = await ctx.client.workflow.start<OnboardCaseWorkflow>(journeyWorkflowType, {
      workflowId,
      taskQueue: ctx.taskQueue,
      args: [withoutNames(input)],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: journeySummary(input.caseId),
      typedSearchAttributes: caseSearchAttributes(input.caseId, 'running'),
    });
    return { caseId: input.caseId, workflowId, runId: handle.firstExecutionRunId, created: true };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { caseId: input.caseId, workflowId, runId: null, created: false };
    throw error;
  }
}

/** Who the case is about, as the input names them (the company's and the people's names when given). */
function partiesOf(input: ValidOnboardCaseInput) {
  const company = input.company
    ? [{ role: 'company' as const, partyId: input.company.company_id, name: input.company.company_name ?? null }]
    : [];
  return [
    ...company,
    ...input.people.map((p) => ({ role: 'applicant' as const, partyId: p.personId, name: p.name ?? null })),
  ];
}

/** People's names stay in the case file: histories hold ids, not personal data (docs/architecture.md). */
function withoutNames(input: ValidOnboardCaseInput): ValidOnboardCaseInput {
  return { ...input, people: input.people.map(({ personId }) => ({ personId })) };
}

/**
 * The journey's status from the read model. A journey writes its first state in its first workflow
 * task; until that write lands, the `status` query answers (and an unknown case is not found).
 */
export async function journeyStatus(ctx: JourneyReadContext, caseId: string): Promise<JourneyStatusView> {
  const read = await readCaseStatus(ctx.readModel, caseId);
  if (read) return read;
  const handle = journeyHandle(ctx, caseId);
  const description = await handle.describe();
  const reference = (await caseStartOf(ctx.readModel.pool, caseId))?.reference ?? null;
  return {
    ...(await handle.query(journeyStatusQuery)),
    runStatus: description.status.name,
    runId: description.runId,
    reference,
  };
}

/** One page of journeys, newest first (unless sorted otherwise), the latest run of each case once. */
export async function listJourneys(
  ctx: JourneyReadContext,
  options: { state?: string; pageSize?: number; pageToken?: string } & JourneyListFilters = {},
): Promise<JourneyPage> {
  const { state, pageSize, pageToken, ...filters } = options;
  // An empty state or page token asks for no filter and the first page.
  const query = { ...filters, state: state || undefined, limit: pageSize ?? 100, cursor: pageToken || undefined };
  return listCaseRows(ctx.readModel, query);
}

/** Every page of `listJourneys`. */
export async function listAllJourneys(
  ctx: JourneyReadContext,
  state?: string,
  filters: JourneyListFilters = {},
): Promise<JourneySummary[]> {
  const all: JourneySummary[] = [];
  let pageToken: string | undefined;
  do {
    const page = await listJourneys(ctx, {
      ...filters,
      ...(state ? { state } : {}),
      ...(pageToken ? { pageToken } : {}),
    });
    all.push(...page.cases);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return all;
}

/**
 * What every operator action carries besides its request: who acts and the ids it goes under, as
 * the front ends build it (operatorIdentity.ts). Temporal answers an Update whose id it already
 * took on the run with the first one's result, so a repeated request acts once. A caller may leave
 * parts out (`auditedIdentity` says what the audit entry then records); the Update carries the
 * actor only when one is named.
 */
export type OperatorActionOptions = Partial<OperatorIdentity>;

export interface RetryStepOptions extends OperatorActionOptions {
  /** Ask the provider for a new purchase instead of continuing what it still holds for the step. */
  fresh?: boolean;
}

export function retryStep(
  ctx: JourneyClientContext,
  caseId: string,
  step: string,
  reason?: string,
  options: RetryStepOptions = {},
): Promise<OperatorActionResult> {
  const request = {
    step,
    ...(reason ? { reason } : {}),
    ...(options.fresh ? { fresh: true } : {}),
    ...actorOf(options),
  };
  const entry = { caseId, action: 'retryStep' as const, step, reason: reason ?? null, ...auditedIdentity(options) };
  return audited(ctx.readModel, entry, () =>
    onRunningJourney(ctx, caseId, async (handle) =>
      sameStep(await handle.executeUpdate(retryStepUpdate, { args: [request], ...updateIdOf(options) }), step, options),
    ),
  );
}

export function waiveStep(
  ctx: JourneyClientContext,
  caseId: string,
  step: string,
  reason: string,
  options: OperatorActionOptions = {},
): Promise<OperatorActionResult> {
  const entry = { caseId, action: 'waiveStep' as const, step, reason, ...auditedIdentity(options) };
  return audited(ctx.readModel, entry, () =>
    onRunningJourney(ctx, caseId, async (handle) =>
      sameStep(
        await handle.executeUpdate(waiveStepUpdate, {
          args: [{ step, reason, ...actorOf(options) }],
          ...updateIdOf(options),
        }),
        step,
        options,
      ),
    ),
  );
}

export function resolvePicklist(
  ctx: JourneyClientContext,
  caseId: string,
  providerId: string,
  options: OperatorActionOptions = {},
): Promise<OperatorActionResult> {
  const entry = {
    caseId,
    action: 'resolvePicklist' as const,
    step: journeySteps.creditReport.key,
    reason: `chose ${providerId}`,
    ...auditedIdentity(options),
  };
  return audited(ctx.readModel, entry, () =>
    onRunningJourney(ctx, caseId, (handle) =>
      handle.executeUpdate(resolveJourneyPicklistUpdate, {
        args: [{ providerId, ...actorOf(options) }],
        ...updateIdOf(options),
      }),
    ),
  );
}

const actorOf = (options: OperatorActionOptions) => (options.actor ? { actor: options.actor } : {});
const updateIdOf = (options: OperatorActionOptions) => (options.updateId ? { updateId: options.updateId } : {});

/**
 * A repeated Update id answers the first Update's result: one about another step means the id was
 * reused for another request.
 */
function sameStep(result: OperatorActionResult, step: string, options: OperatorActionOptions): OperatorActionResult {
  if (options.updateId && result.step !== step) throw new RequestIdReusedError(options.updateId, result.step, step);
  return result;
}

export function cancelJourney(
  ctx: JourneyClientContext,
  caseId: string,
  reason?: string,
  options: Pick<OperatorActionOptions, 'actor' | 'requestId'> = {},
): Promise<void> {
  const entry = { caseId, action: 'cancel' as const, reason: reason ?? null, ...auditedIdentity(options) };
  return audited(ctx.readModel, entry, () =>
    onRunningJourney(ctx, caseId, (handle) =>
      handle.signal(cancelJourneySignal, { ...(reason ? { reason } : {}), ...actorOf(options) }),
    ),
  );
}

/**
 * Renewing a closed case's evidence on demand: a new run that buys the named items again and
 * carries every other step over (evidenceRefresh.ts).
 */
export { planEvidenceRefresh, refreshEvidence } from './evidenceRefresh';

export const journeyHandle = (ctx: JourneyClientContext, caseId: string) =>
  ctx.client.workflow.getHandle(journeyWorkflowId(caseId));

/**
 * Actions need a running journey; a closed one is refused by name rather than as "not found", also
 * when it closes between the look and the action (its last write to the read model comes just
 * before its close, so a caller that saw it closing there often acts in that moment): Temporal
 * then answers "not found" (or "workflow is closing") to the signal or the Update, and a second
 * look names the close.
 */
async function onRunningJourney<T>(
  ctx: JourneyClientContext,
  caseId: string,
  action: (handle: ReturnType<typeof journeyHandle>) => Promise<T>,
): Promise<T> {
  const handle = journeyHandle(ctx, caseId);
  await refuseUnlessRunning(ctx, handle, caseId);
  // Completed or cancelled, the run still delivering its last events: closed in all but name.
  const closed = await closedCaseState(ctx, caseId);
  if (closed) throw new JourneyClosedError(caseId, closed);
  try {
    return await action(handle);
  } catch (error) {
    if (workflowNotFound(error)) await refuseUnlessRunning(ctx, handle, caseId);
    // Still closing after the client's quick tries: refused as closed, which it is about to be.
    if (workflowClosing(error)) {
      await refuseUnlessRunning(ctx, handle, caseId);
      throw new JourneyClosedError(caseId, 'closing');
    }
    throw error;
  }
}

/**
 * A closed run is refused under the case's own final state when the read model has it (a cancelled
 * case says `cancelled` whichever look saw it closed), else under the run's status.
 */
async function refuseUnlessRunning(
  ctx: JourneyClientContext,
  handle: ReturnType<typeof journeyHandle>,
  caseId: string,
): Promise<void> {
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') return;
  throw new JourneyClosedError(caseId, (await closedCaseState(ctx, caseId)) ?? description.status.name);
}

/** `completed` or `cancelled` when the read model shows the case so; else undefined. */
async function closedCaseState(ctx: JourneyClientContext, caseId: string): Promise<string | undefined> {
  const read = ctx.readModel && (await readCaseStatus(ctx.readModel, caseId));
  return read && (read.state === 'completed' || read.state === 'cancelled') ? read.state : undefined;
}
