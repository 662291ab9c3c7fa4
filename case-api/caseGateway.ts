/**
 * What the case API asks of Temporal: start a journey once per case, read its status, list
 * journeys by state a page at a time, and the operator actions, each on `case/<caseId>`.
 */
import type { CaseEvidence } from '../case-file/evidence';
import type { CaseFileStore } from '../case-file/store';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { decodeSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { cancelJourney, resolvePicklist, retryStep, waiveStep, type CommandContext } from '../cli/journeyCommands';
import type { OnboardCaseInput } from '../workflows/journeyInput';
import { journeyStatusQuery, journeyWorkflowId, onboardCase, type JourneyStatus, type OperatorActionResult } from '../workflows/onboardCaseWorkflow';
import { HttpError } from './httpError';
import { toHttpError } from './temporalErrors';

export interface StartedCase {
  caseId: string;
  workflowId: string;
  runId: string | null;
  created: boolean;
}

export interface CaseSummary {
  caseId: string;
  workflowId: string;
  runId: string;
  state: string;
  runStatus: string;
  startedAt: string | null;
}

export class CaseGateway {
  private readonly ctx: CommandContext;

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly caseFile?: CaseFileStore,
  ) {
    this.ctx = { client, taskQueue };
  }

  /** What the case file holds for the case (reports, results, accounts with transactions, document metadata). */
  async evidence(caseId: string): Promise<CaseEvidence> {
    if (!this.caseFile) throw new HttpError(503, 'unavailable', 'The case file is not configured for this API process (set DATABASE_URL)');
    await this.status(caseId);
    return this.caseFile.evidence(caseId);
  }

  /** Idempotent on caseId: a workflow id never reused (REJECT_DUPLICATE), so a repeat finds the existing journey. */
  async start(input: OnboardCaseInput): Promise<StartedCase> {
    const workflowId = journeyWorkflowId(input.caseId);
    try {
      const handle = await this.client.workflow.start(onboardCase, { workflowId, taskQueue: this.taskQueue, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
      return { caseId: input.caseId, workflowId, runId: handle.firstExecutionRunId, created: true };
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return { caseId: input.caseId, workflowId, runId: null, created: false };
      throw toHttpError(error, input.caseId);
    }
  }

  async status(caseId: string): Promise<JourneyStatus & { runStatus: string; runId: string }> {
    try {
      const handle = this.client.workflow.getHandle(journeyWorkflowId(caseId));
      const description = await handle.describe();
      return { ...(await handle.query(journeyStatusQuery)), runStatus: description.status.name, runId: description.runId };
    } catch (error) {
      throw toHttpError(error, caseId);
    }
  }

  /** One page of journeys on this API's task queue, newest first, the latest run of each case once. */
  async list(state: string | undefined, pageSize: number, pageToken?: string): Promise<{ cases: CaseSummary[]; nextPageToken: string | null }> {
    const filters = ['WorkflowType = "onboardCase"', `TaskQueue = "${this.taskQueue}"`, ...(state ? [`JourneyState = "${state}"`] : [])];
    const answer = await this.client.workflowService.listWorkflowExecutions({
      namespace: this.client.options.namespace,
      query: filters.join(' AND '),
      pageSize,
      nextPageToken: pageToken ? Buffer.from(pageToken, 'base64url') : undefined,
    }).catch((error: unknown) => {
      throw isBadToken(error) ? new HttpError(400, 'invalid_page_token', 'pageToken is not a token from an earlier page') : toHttpError(error, '');
    });
    const seen = new Set<string>();
    const cases: CaseSummary[] = [];
    for (const execution of answer.executions ?? []) {
      const workflowId = execution.execution?.workflowId ?? '';
      if (seen.has(workflowId)) continue;
      seen.add(workflowId);
      const attributes = decodeSearchAttributes(execution.searchAttributes?.indexedFields);
      cases.push({
        caseId: String(attributes.CaseId?.[0] ?? workflowId.replace(/^case\//, '')),
        workflowId,
        runId: execution.execution?.runId ?? '',
        state: String(attributes.JourneyState?.[0] ?? 'unknown'),
        runStatus: runStatusName(execution.status ?? 0),
        startedAt: execution.startTime?.seconds != null ? new Date(Number(execution.startTime.seconds) * 1000).toISOString() : null,
      });
    }
    const token = answer.nextPageToken?.length ? Buffer.from(answer.nextPageToken).toString('base64url') : null;
    return { cases, nextPageToken: token };
  }

  retryStep(caseId: string, step: string, reason?: string): Promise<OperatorActionResult> {
    return this.act(caseId, () => retryStep(this.ctx, caseId, step, reason));
  }

  waiveStep(caseId: string, step: string, reason: string): Promise<OperatorActionResult> {
    return this.act(caseId, () => waiveStep(this.ctx, caseId, step, reason));
  }

  resolvePicklist(caseId: string, providerId: string): Promise<OperatorActionResult> {
    return this.act(caseId, () => resolvePicklist(this.ctx, caseId, providerId));
  }

  cancel(caseId: string, reason?: string): Promise<void> {
    return this.act(caseId, () => cancelJourney(this.ctx, caseId, reason));
  }

  /** Actions need a running journey; a closed one is refused by name rather than as "not found". */
  private async act<T>(caseId: string, action: () => Promise<T>): Promise<T> {
    try {
      const description = await this.client.workflow.getHandle(journeyWorkflowId(caseId)).describe();
      if (description.status.name !== 'RUNNING') {
        throw new HttpError(422, 'case_closed', `case/${caseId} is ${description.status.name.toLowerCase()}; operator actions need a running journey (journey retry starts a new run)`);
      }
      return await action();
    } catch (error) {
      throw toHttpError(error, caseId);
    }
  }
}

const runStatusNames = ['UNSPECIFIED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'CONTINUED_AS_NEW', 'TIMED_OUT'];
const runStatusName = (status: number) => runStatusNames[status] ?? 'UNKNOWN';
const isBadToken = (error: unknown) => (error as { code?: number }).code === 3;
