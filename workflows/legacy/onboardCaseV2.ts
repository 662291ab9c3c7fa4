/**
 * The journey as it ran before operator recovery (histories without the `operator-recovery`
 * marker): steps run once, and the journey ends when they have. Kept, unchanged in the commands it
 * issues, so that journeys started before the change still replay and finish; remove it once no
 * such journey is open (then `deprecatePatch('operator-recovery')` in onboardCase).
 */
import type { Duration } from '@temporalio/common';
import {
  CancellationScope,
  executeChild,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { affordabilityWorkflow } from '../affordabilityWorkflow';
import { bankingWorkflow } from '../bankingWorkflow';
import { creditReportWorkflow } from '../creditReportWorkflow';
import { deadlinesWith } from '../deadlines';
import { documentsWorkflow } from '../documentsWorkflow';
import { identityVerificationWorkflow } from '../identityVerificationWorkflow';
import { incomeEmployerWorkflow } from '../incomeEmployerWorkflow';
import type { OnboardCaseInput, ValidOnboardCaseInput } from '../journeyInput';
import { journeyInputOrFail } from '../journeyInputCheck';
import { cancelJourneySignal, journeyStatusQuery, journeyWorkflowId, type JourneyStatus as CurrentJourneyStatus } from '../journeyMessages';
import { caseIdSearchAttribute, journeyStateSearchAttribute } from '../searchAttributes';
import { stepReportSignal, terminalStates, type StepStatus } from '../stepStatus';

interface JourneyStatus {
  caseId: string;
  state: 'running' | 'completed' | 'needs_attention' | 'cancelled';
  steps: Record<string, StepStatus & { workflowId: string }>;
  reasons: string[];
}

type StepRun = () => Promise<StepStatus>;

export async function onboardCaseV2(rawInput: OnboardCaseInput): Promise<JourneyStatus> {
  const input = journeyInputOrFail(rawInput);
  const status: JourneyStatus = { caseId: input.caseId, state: 'running', steps: {}, reasons: [] };
  const plan = planSteps(input, status);
  setHandler(journeyStatusQuery, () => status as unknown as CurrentJourneyStatus);
  const lastReport = new Map<string, number>();
  setHandler(stepReportSignal, ({ stepKey, seq, status: reported }) => {
    const step = status.steps[stepKey];
    if (!step || terminalStates.includes(step.state) || seq <= (lastReport.get(stepKey) ?? 0)) return;
    lastReport.set(stepKey, seq);
    Object.assign(step, reported);
  });
  upsertSearchAttributes([
    { key: caseIdSearchAttribute, value: input.caseId },
    { key: journeyStateSearchAttribute, value: 'running' },
  ]);

  const scope = new CancellationScope();
  let cancelReason: string | undefined;
  setHandler(cancelJourneySignal, ({ reason }) => {
    cancelReason = reason ?? 'cancelled by an operator';
    scope.cancel();
  });

  await scope.run(async () => {
    const run = (key: string) => runStep(status, key, plan.get(key) as StepRun);
    const independent = [...plan.keys()].filter((key) => key !== 'affordability');
    await Promise.all(
      independent.map(async (key) => {
        await run(key);
        // Affordability is computed from the case's banking data: it runs once banking completed.
        if (key !== 'banking' || !plan.has('affordability')) return;
        const banking = status.steps.banking as StepStatus;
        if (banking.state === 'completed') return run('affordability');
        Object.assign(status.steps.affordability as StepStatus, { state: 'cancelled', reason: `not started: banking ended ${banking.state}` });
      }),
    );
  });

  for (const step of Object.values(status.steps)) {
    if (!terminalStates.includes(step.state)) Object.assign(step, { state: 'cancelled', reason: cancelReason ?? 'not finished' });
  }
  status.reasons = Object.entries(status.steps)
    .filter(([, s]) => s.state !== 'completed')
    .map(([key, s]) => `${key}: ${s.state}${s.reason ? ` (${s.reason})` : ''}`);
  status.state = cancelReason ? 'cancelled' : status.reasons.length === 0 ? 'completed' : 'needs_attention';
  if (cancelReason) status.reasons.unshift(cancelReason);
  upsertSearchAttributes([{ key: journeyStateSearchAttribute, value: status.state }]);
  return status;
}

/** Runs one step as a child workflow; its final status replaces the entry. Never throws. */
async function runStep(status: JourneyStatus, key: string, run: StepRun): Promise<void> {
  const entry = status.steps[key] as JourneyStatus['steps'][string];
  entry.state = 'running';
  try {
    Object.assign(entry, await run());
  } catch (error) {
    if (isCancellation(error)) {
      Object.assign(entry, { state: 'cancelled' });
      return;
    }
    Object.assign(entry, { state: 'failed', reason: String((error as Error).cause ?? (error as Error).message ?? error) });
  }
}

/** The steps this journey runs, keyed as in `status.steps`, each with its child workflow. */
function planSteps(input: ValidOnboardCaseInput, status: JourneyStatus): Map<string, StepRun> {
  const deadlines = deadlinesWith(input.deadlines as Record<string, Duration>);
  const caseWorkflow = journeyWorkflowId(input.caseId);
  const plan = new Map<string, StepRun>();
  const add = (key: string, run: (workflowId: string) => Promise<StepStatus>) => {
    const workflowId = `${caseWorkflow}/${key}`;
    status.steps[key] = { state: 'pending', providerIds: {}, lastEvent: null, reason: null, detail: null, workflowId };
    plan.set(key, () => run(workflowId));
  };
  const child = { taskQueue: workflowInfo().taskQueue };
  const { steps } = input;

  if (steps.creditReport && input.company) {
    const company = input.company;
    add('credit-report', (workflowId) =>
      executeChild(creditReportWorkflow, {
        ...child,
        workflowId,
        args: [{ request: company, automaticPicklistRule: input.automaticPicklistRule, picklistDeadline: deadlines.picklist, stepKey: 'credit-report' }],
      }),
    );
  }
  if (steps.identityVerification) {
    for (const { personId } of input.people) {
      const key = `identity-verification/${personId}`;
      add(key, (workflowId) =>
        executeChild(identityVerificationWorkflow, {
          ...child,
          workflowId,
          args: [{ personId, caseId: input.caseId, deadline: deadlines.identityVerification, maxResubmissions: input.maxResubmissions, reconcileAfter: deadlines.reconcileAfter, stepKey: key }],
        }),
      );
    }
  }
  if (steps.banking) {
    const method = steps.banking;
    add('banking', (workflowId) => executeChild(bankingWorkflow, { ...child, workflowId, args: [{ caseId: input.caseId, method, deadline: deadlines.banking, stepKey: 'banking' }] }));
  }
  if (steps.documents?.length) {
    const documents = steps.documents;
    add('documents', (workflowId) =>
      executeChild(documentsWorkflow, { ...child, workflowId, args: [{ caseId: input.caseId, documents, deadline: deadlines.documents, reconcileAfter: deadlines.reconcileAfter, stepKey: 'documents' }] }),
    );
  }
  if (steps.incomeEmployer) {
    add('income-employer', (workflowId) =>
      executeChild(incomeEmployerWorkflow, { ...child, workflowId, args: [{ caseId: input.caseId, deadline: deadlines.incomeEmployer, reconcileAfter: deadlines.reconcileAfter, stepKey: 'income-employer' }] }),
    );
  }
  if (steps.affordability) {
    add('affordability', (workflowId) =>
      executeChild(affordabilityWorkflow, { ...child, workflowId, args: [{ caseId: input.caseId, deadline: deadlines.affordability, reconcileAfter: deadlines.reconcileAfter, stepKey: 'affordability' }] }),
    );
  }
  return plan;
}
