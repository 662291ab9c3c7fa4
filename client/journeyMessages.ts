/**
 * The journey's messages and status, shared by the workflow and its clients (the CLI, the tests,
 * the case API): `status` (query), `cancel` (signal) and the operator Updates `retryStep`,
 * `waiveStep` and `resolvePicklist` on `case/<caseId>` (docs/architecture.md, "Journeys").
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { EvidenceValidity } from './evidenceValidity';
import type { OperatorUpdateName } from './journeyNames';
import type { StepState } from './stepState';
import type { ValidOnboardCaseInput } from './journeyInput';
import type { StepStatus } from './stepMessages';

export type JourneyState = 'running' | 'needs_attention' | 'completed' | 'cancelled';

/** One attempt of a step: a child workflow of its own, with its provider ids and outcome. */
export interface StepAttempt {
  attempt: number;
  workflowId: string;
  state: StepState;
  providerIds: Record<string, string>;
  reason: string | null;
  /** Why an operator asked for this attempt. */
  requestedBecause?: string | null;
  /** Taken over from an earlier run of the journey, without any provider call. */
  carriedOver?: boolean;
  /** The need this attempt worked for (client/purchaseKey.ts): attempts of one need share their keys. */
  need?: number;
  /** An operator asked for a new purchase (`retryStep { fresh: true }`). */
  fresh?: boolean;
  /** What this attempt bought is finished and unusable: the next attempt buys anew. */
  needSpent?: boolean;
}

export interface JourneyStep extends StepStatus {
  /** The current attempt's child workflow. */
  workflowId: string;
  /** The current attempt (1 for the first). */
  attempt: number;
  attempts: StepAttempt[];
  /** The step whose completion this one waits for (affordability waits for banking). */
  dependsOn: string | null;
  /** The need the current attempt works for (0 before the first attempt). */
  need?: number;
  /**
   * What an operator can do about the step now, as the journey accepts it (`retryStep banking`,
   * `waiveStep affordability`, `resolvePicklist`); empty while the step moves on its own.
   */
  actions?: string[];
  /**
   * How long the evidence the step gathered stays valid (client/evidenceValidity.ts): set once an
   * attempt of a step that gives an evidence kind completed (documents give none).
   */
  evidence?: EvidenceValidity;
}

export interface JourneyStatus {
  caseId: string;
  state: JourneyState;
  steps: Record<string, JourneyStep>;
  /** One line per step that is not completed or waived. */
  reasons: string[];
  /** While the journey waits only for an operator: when that wait ends (ISO 8601). */
  operatorDeadline?: string | null;
  /** Each completed step's evidence, by step key: the same items as the steps' `evidence`. */
  evidence?: Record<string, EvidenceValidity>;
}

export interface RetryStepRequest {
  step: string;
  reason?: string;
  /**
   * Ask the provider for a new purchase (a new report, a new IDV request) instead of continuing
   * what it still holds for the step; recorded with the attempt.
   */
  fresh?: boolean;
  /** Who asked (an API key's name, a signed-in operator, a CLI user): carried for the record, decides nothing. */
  actor?: string;
}

export interface WaiveStepRequest {
  step: string;
  reason: string;
  actor?: string;
}

export interface ResolvePicklistRequest {
  providerId: string;
  actor?: string;
}

/** What an accepted operator action answers: the step as it stands once the action took effect. */
export interface OperatorActionResult {
  step: string;
  status: JourneyStep;
}

export const journeyStatusQuery = defineQuery<JourneyStatus>('status');
export const cancelJourneySignal = defineSignal<[{ reason?: string; actor?: string }]>('cancel');
// The operator actions' Updates, by their names in journeyNames.ts.
export const retryStepUpdate = defineUpdate<OperatorActionResult, [RetryStepRequest]>(
  'retryStep' satisfies OperatorUpdateName,
);
export const waiveStepUpdate = defineUpdate<OperatorActionResult, [WaiveStepRequest]>(
  'waiveStep' satisfies OperatorUpdateName,
);
export const resolveJourneyPicklistUpdate = defineUpdate<OperatorActionResult, [ResolvePicklistRequest]>(
  'resolvePicklist' satisfies OperatorUpdateName,
);

/** The journey's workflow type; clients start it by name (they never import workflow code). */
export const journeyWorkflowType = 'onboardCase';

/** The journey's signature: it takes the input as the schema gave it (journeyInput.ts). */
export type OnboardCaseWorkflow = (input: ValidOnboardCaseInput) => Promise<JourneyStatus>;

export function journeyWorkflowId(caseId: string): string {
  return `case/${caseId}`;
}

/** The child workflow of a step's attempt: `case/<caseId>/<step>` first, then `…/<step>/<n>`. */
export function attemptWorkflowId(caseId: string, stepKey: string, attempt: number): string {
  const first = `${journeyWorkflowId(caseId)}/${stepKey}`;
  return attempt <= 1 ? first : `${first}/${attempt}`;
}

/** The key under which an attempt reports to the journey: `<step>@<attempt>`. */
export function attemptReportKey(stepKey: string, attempt: number): string {
  return `${stepKey}@${attempt}`;
}

export function parseAttemptReportKey(reportKey: string): { stepKey: string; attempt: number } {
  const at = reportKey.lastIndexOf('@');
  if (at < 0) return { stepKey: reportKey, attempt: 1 };
  return { stepKey: reportKey.slice(0, at), attempt: Number(reportKey.slice(at + 1)) };
}
