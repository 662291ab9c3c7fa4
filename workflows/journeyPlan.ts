/**
 * Which steps a journey runs and how each attempt of a step starts its child workflow. Every
 * attempt is a new child (`case/<caseId>/<step>/<n>` after the first), so its events are its own;
 * its provider calls carry the keys of the need it works for (client/purchaseKey.ts), and it
 * continues what the provider holds for that need (a report, a request sent to the person).
 */
import { WorkflowExecutionAlreadyStartedError, type Duration } from '@temporalio/common';
import { executeChild, getExternalWorkflowHandle, ParentClosePolicy, sleep, workflowInfo } from '@temporalio/workflow';
import { affordabilityWorkflow } from './affordabilityWorkflow';
import { bankingWorkflow } from './bankingWorkflow';
import { creditReportWorkflow } from './creditReportWorkflow';
import { deadlinesWith, type Deadlines } from '../client/deadlines';
import { documentsWorkflow } from './documentsWorkflow';
import { identityVerificationWorkflow } from './identityVerificationWorkflow';
import { incomeEmployerWorkflow } from './incomeEmployerWorkflow';
import type { ValidOnboardCaseInput } from '../client/journeyInput';
import { attemptReportKey } from '../client/journeyMessages';
import { journeySteps } from '../client/journeyNames';
import type { StepStatus } from '../client/stepMessages';
import { caseSearchAttributes } from '../client/searchAttributes';
import { stepSummary } from '../client/workflowMetadata';

/** What an attempt works for, decided by the journey (onboardCaseWorkflow.ts, `continuation`). */
export interface Continuation {
  need: number;
  /** `case/<caseId>/<step>/<need>`: the need's idempotency keys extend it. */
  purchase: string;
  /** An operator asked for a new purchase. */
  fresh: boolean;
  /** What earlier attempts of this need hold at the provider (`report_id`, `request_id`, …). */
  providerIds: Record<string, string>;
  /** IDV: requests sent to the person that they may still complete. */
  openRequests: string[];
}

export interface AttemptStart {
  stepKey: string;
  attempt: number;
  workflowId: string;
  /** When the attempt began (ISO 8601, workflow time). */
  startedAt: string;
  continuation: Continuation;
}

export interface PlannedStep {
  key: string;
  dependsOn: string | null;
  start: (attempt: AttemptStart) => Promise<StepStatus>;
}

export function planSteps(input: ValidOnboardCaseInput): Map<string, PlannedStep> {
  const deadlines: Deadlines = deadlinesWith(input.deadlines as Record<string, Duration>);
  // How each step's resources poll the provider when no webhook comes.
  const reconciliation = {
    reconcileAfter: deadlines.reconcileAfter,
    reconcileBackoffCap: deadlines.reconcileBackoffCap,
  };
  const plan = new Map<string, PlannedStep>();
  const taskQueue = workflowInfo().taskQueue;
  const { steps, caseId } = input;
  const common = (key: string, attempt: AttemptStart) => ({
    stepKey: attemptReportKey(key, attempt.attempt),
    callBudget: deadlines.providerCalls,
    purchase: attempt.continuation.purchase,
    fresh: attempt.continuation.fresh || undefined,
  });
  /** The attempt's child workflow, with its one input. */
  const child = <Input, Result extends StepStatus>(
    workflow: (input: Input) => Promise<Result>,
    attempt: AttemptStart,
    input: Input,
  ): Promise<StepStatus> =>
    afterAnOrphan(attempt.workflowId, () =>
      executeChild(workflow, {
        taskQueue,
        workflowId: attempt.workflowId,
        args: [input],
        staticSummary: stepSummary(caseId, attempt.stepKey, attempt.attempt),
        typedSearchAttributes: caseSearchAttributes(caseId),
        // A journey that closes without stopping its steps (terminated) asks them to stop: each
        // then finishes its creating calls, answers with the ids it bought and leaves its resources.
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      }),
    );
  const add = (key: string, start: PlannedStep['start'], dependsOn: string | null = null) =>
    plan.set(key, { key, dependsOn, start });

  if (steps.creditReport && input.company) {
    const request = input.company;
    const key = journeySteps.creditReport.key;
    add(key, (a) =>
      child(creditReportWorkflow, a, {
        ...common(key, a),
        caseId,
        request,
        automaticPicklistRule: input.automaticPicklistRule,
        picklistDeadline: deadlines.picklist,
        // The need's report, when an earlier attempt bought one: continued (its picklist resolved), not bought again.
        reportId: a.continuation.providerIds.report_id,
      }),
    );
  }
  if (steps.identityVerification) {
    for (const { personId } of input.people) {
      const key = `${journeySteps.identityVerification.key}/${personId}`;
      add(key, (a) =>
        child(identityVerificationWorkflow, a, {
          ...common(key, a),
          personId,
          caseId,
          deadline: deadlines.identityVerification,
          maxResubmissions: input.maxResubmissions,
          ...reconciliation,
          // The person's open request is continued, unless an operator asked for a fresh one.
          adoptOpenRequest: !a.continuation.fresh,
          knownRequests: a.continuation.openRequests,
        }),
      );
    }
  }
  if (steps.banking) {
    const method = steps.banking;
    const key = journeySteps.banking.key;
    add(key, (a) =>
      child(bankingWorkflow, a, {
        ...common(key, a),
        caseId,
        method,
        deadline: deadlines.banking,
        ignoreEventsBefore: a.attempt > 1 ? a.startedAt : undefined,
      }),
    );
  }
  if (steps.documents?.length) {
    const documents = steps.documents;
    const key = journeySteps.documents.key;
    add(key, (a) =>
      child(documentsWorkflow, a, {
        ...common(key, a),
        caseId,
        documents,
        deadline: deadlines.documents,
        ...reconciliation,
      }),
    );
  }
  if (steps.incomeEmployer) {
    const key = journeySteps.incomeEmployer.key;
    add(key, (a) =>
      child(incomeEmployerWorkflow, a, {
        ...common(key, a),
        caseId,
        deadline: deadlines.incomeEmployer,
        ...reconciliation,
      }),
    );
  }
  if (steps.affordability) {
    // Affordability is computed from the case's banking data: it runs once banking completed.
    const key = journeySteps.affordability.key;
    const start = (a: AttemptStart) =>
      child(affordabilityWorkflow, a, {
        ...common(key, a),
        caseId,
        deadline: deadlines.affordability,
        ...reconciliation,
      });
    add(key, start, steps.banking ? journeySteps.banking.key : null);
  }
  return plan;
}

/** About two minutes in all: an orphan's creating call answers, and it closes, well within it. */
const ORPHAN_WAITS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 60_000] as const;

/**
 * A reset (the Web UI's, `temporal workflow reset`) runs the journey again from an earlier point
 * while the attempt its earlier run started may still run, under the id this run's attempt needs.
 * That orphan is asked to stop (its creating calls answer first; what it bought is under the
 * need's keys, which this attempt sends again), and this attempt starts once it has closed.
 */
async function afterAnOrphan<T>(workflowId: string, start: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await start();
    } catch (error) {
      const wait = ORPHAN_WAITS_MS[tries];
      if (!(error instanceof WorkflowExecutionAlreadyStartedError) || wait === undefined) throw error;
      if (tries === 0)
        await getExternalWorkflowHandle(workflowId)
          .cancel()
          .catch(() => undefined);
      await sleep(wait);
    }
  }
}
