/**
 * `onboardCase`, workflow ID `case/<caseId>` (docs/architecture.md): a case's onboarding as one
 * durable journey. Independent steps run in parallel as child workflows; affordability runs after
 * banking. A journey that needs attention stays open: it waits (under `deadlines.operatorDecision`)
 * for the operator Updates `retryStep`, `waiveStep` and `resolvePicklist`, and completes when every
 * step is completed or waived. Every attempt of a step is a child of its own and stays visible in
 * `status`. `cancel` (signal) and a native Temporal cancel both end it `cancelled`.
 *
 * Operator actions never buy twice and never dead-end: attempts of one need share their
 * idempotency keys (client/purchaseKey.ts) and continue what the provider holds; a waive, retry or
 * cancel stops a running attempt only after its creating calls answered, and records what they
 * bought; every state a step can be in names the actions the journey accepts (`actions`); an action
 * that conflicts with one in flight is refused by its validator.
 */
import { msToNumber } from '@temporalio/common/lib/time';
import type { Duration } from '@temporalio/common';
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import {
  choosePicklistEntrySignal,
  picklistChoiceProblem,
  type CreditReportDetail,
} from '../client/creditReportMessages';
import { defaultDeadlines, deadlinesWith } from '../client/deadlines';
import type { ValidOnboardCaseInput } from '../client/journeyInput';
import {
  attemptWorkflowId,
  cancelJourneySignal,
  journeyStatusQuery,
  parseAttemptReportKey,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyState,
  type JourneyStatus,
  type JourneyStep,
} from '../client/journeyMessages';
import { journeySteps, type OperatorUpdateName } from '../client/journeyNames';
import { evidenceOfSteps, staleReason as staleReasonOf } from '../client/evidenceValidity';
import { JourneyEvidence, type CompletedRenewal } from './journeyEvidence';
import { JourneyNotifier } from './journeyNotifier';
import { JourneyReadModel, type RunStatus } from './journeyReadModel';
import { planSteps, type Continuation, type PlannedStep } from './journeyPlan';
import { providerErrorOf } from './providerFailure';
import { readableInput } from './journeyInputCheck';
import {
  continueAsNewSuggested,
  continueJourney,
  type ContinuedJourney,
  type JourneyInput,
} from './journeyContinuation';
import { caseIdSearchAttribute, journeyStateSearchAttribute } from '../client/searchAttributes';
import { attentionStates, settledStates, type StepState } from '../client/stepState';
import { purchaseKey } from '../client/purchaseKey';
import { openRequestsOf } from '../client/openRequests';
import { stepReportSignal, type StepStatus } from '../client/stepMessages';
import { currentDetails } from '../client/workflowMetadata';

const activeStates: readonly StepState[] = ['running', 'waiting'];

/** States from which `retryStep` starts a new attempt: an operator's way forward from each. */
const retryableStates: readonly StepState[] = [...attentionStates, 'waiting', 'waived'];

/** The credit report's step: the one a picklist belongs to. */
const creditReportKey = journeySteps.creditReport.key;

/**
 * The input was checked at the boundary (client/journeyInput.ts: our clients parse it with the
 * schema before they start a journey); the journey only checks that its code can read it
 * (journeyInputCheck.ts), so a rule tightened later never changes the replay of a journey that
 * started under the old one.
 */
export async function onboardCase(input: ValidOnboardCaseInput): Promise<JourneyStatus> {
  return new Journey(readableInput(input) as JourneyInput).run();
}

class Journey {
  readonly status: JourneyStatus;
  private readonly plan: Map<string, PlannedStep>;
  private readonly scopes = new Map<string, CancellationScope>();
  private readonly lastReport = new Map<string, number>();
  private readonly operatorDecisionMs: number;
  /** Bumped on every change the main loop must look at. */
  private version = 0;
  /** The version the main loop's latest pass started from. */
  private servedVersion = -1;
  private cancelReason: string | null = null;
  private publishedState: JourneyState | null = null;
  private readonly notifier: JourneyNotifier;
  /** The journey's state in the case file, which clients read instead of querying. */
  private readonly readModel = new JourneyReadModel();
  /** Step attempts whose completion the LOS has heard of (`<step>@<attempt>`). */
  private readonly announcedSteps = new Set<string>();
  private announcedState: JourneyState | null = null;
  /** While closing, intermediate states are not announced; the final one is. */
  private closing = false;
  /** Operator actions under way, by step: another action on the step waits until it answered. */
  private readonly inFlight = new Map<string, OperatorUpdateName>();
  /** Steps whose next attempt buys anew: an operator asked (`fresh`), or the step they depend on ran again. */
  private readonly freshNext = new Set<string>();
  /** The journey's root scope: once a native cancel reached it, operator actions are refused. */
  private cancelledScope: CancellationScope | null = null;
  /**
   * Set when the main loop ends (every step settled, the operator deadline passed, or a cancel):
   * from then on the journey only delivers its last writes and events, and refuses every action.
   */
  private ended: { state: JourneyState; reason: string | null } | null = null;
  /** The evidence's validity windows, and its renewals before completion (journeyEvidence.ts). */
  private readonly evidence: JourneyEvidence;
  /** Renewals whose new attempt completed, announced with the next refresh. */
  private readonly refreshed: CompletedRenewal[] = [];
  /** The reason line naming the stale items the journey completes with (`refreshStale: false`). */
  private staleLine: string | undefined;

  constructor(private readonly input: JourneyInput) {
    this.plan = planSteps(input);
    this.evidence = new JourneyEvidence(
      input.freshness as Record<string, Duration> | undefined,
      input.refreshStale !== false,
      input.continued?.evidence,
    );
    this.operatorDecisionMs = msToNumber(deadlinesWith(input.deadlines as Record<string, Duration>).operatorDecision);
    this.status = { caseId: input.caseId, state: 'running', steps: {}, reasons: [], operatorDeadline: null };
    const continued = input.continued;
    this.notifier = new JourneyNotifier(input.caseId, continued?.eventCounts, input.reference);
    if (continued) {
      // A run that continues an earlier one starts where that one stood (journeyContinuation.ts).
      this.status = continued.status;
      for (const key of continued.freshNext) this.freshNext.add(key);
      for (const id of continued.announcedSteps) this.announcedSteps.add(id);
      this.announcedState = continued.announcedState;
      return;
    }
    for (const step of this.plan.values()) this.status.steps[step.key] = this.initialStep(step);
  }

  private initialStep(planned: PlannedStep): JourneyStep {
    const carried = this.input.carryOver?.steps[planned.key];
    const priorAttempts = this.input.carryOver?.attempts[planned.key] ?? 0;
    const base = { dependsOn: planned.dependsOn, lastEvent: null, links: {}, error: null };
    const continued = this.input.carryOver?.purchases?.[planned.key];
    if (carried) {
      const { state, attempt, workflowId, providerIds, reason, detail, lastEvent } = carried;
      return {
        ...base,
        need: continued?.need ?? 0,
        state,
        attempt,
        workflowId,
        providerIds,
        reason,
        detail: detail ?? null,
        lastEvent,
        attempts: [{ attempt, workflowId, state, providerIds, reason, carriedOver: true }],
        evidence: this.evidence.carried(planned.key, carried.evidence),
      };
    }
    return {
      ...base,
      need: continued?.need ?? 0,
      state: 'pending',
      attempt: priorAttempts,
      workflowId: attemptWorkflowId(this.input.caseId, planned.key, priorAttempts + 1),
      providerIds: {},
      reason: null,
      detail: null,
      attempts: [],
    };
  }

  async run(): Promise<JourneyStatus> {
    for (const [key, step] of Object.entries(this.status.steps))
      if (step.state === 'completed') this.announcedSteps.add(`${key}@${step.attempt}`);
    this.cancelledScope = CancellationScope.current();
    this.registerHandlers();
    // CaseId and the first JourneyState (`running`, or the state a continued run left) are set by
    // our clients at start (journeyContinuation.ts for a continued run); another client's journey
    // sets them itself, so the Web UI and `journey replay` find it all the same.
    this.publishedState = this.input.continued?.status.state ?? 'running';
    if (workflowInfo().typedSearchAttributes.get(caseIdSearchAttribute) === undefined)
      upsertSearchAttributes([
        { key: caseIdSearchAttribute, value: this.input.caseId },
        { key: journeyStateSearchAttribute, value: this.publishedState },
      ]);
    try {
      await this.loop();
    } catch (error) {
      if (!isCancellation(error)) throw error;
      // A native cancel (the Web UI's, `handle.cancel()`): children are cancelled with this scope.
      this.cancelReason ??= 'cancelled through Temporal';
      await CancellationScope.nonCancellable(async () => {
        await this.close('cancelled', this.cancelReason as string);
        await this.finish('CANCELLED');
      });
      throw error;
    }
    // A cancel that comes while the last writes are delivered changes nothing: the journey has ended.
    await CancellationScope.nonCancellable(() => this.finish('COMPLETED'));
    return this.status;
  }

  /**
   * The journey's last writes and events, delivered before it closes (a closed workflow's
   * activities never run). Every operator action is refused by now, and one accepted before the
   * loop ended has been answered: nothing but the deliveries keeps the journey open.
   */
  private async finish(runStatus: RunStatus): Promise<void> {
    this.readModel.write(this.status, runStatus);
    await this.notifier.drain();
    await this.readModel.drain();
    await condition(allHandlersFinished);
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.servedVersion = this.version;
      this.beforeCompletion();
      for (const key of this.runnable()) this.launch(key);
      this.refresh();
      // A waived step's attempt may still be finishing a purchase: completed once it has.
      if (this.status.state === 'completed' && this.scopes.size === 0) {
        this.ended = { state: 'completed', reason: null };
        return;
      }
      if (this.cancelReason) return this.close('cancelled', this.cancelReason);
      const seen = this.version;
      if (this.scopes.size > 0) {
        this.readModel.write(this.status);
        await condition(() => this.version !== seen);
        continue;
      }
      // Nothing runs: only an operator can move the journey on. A long history goes on in a new
      // run instead, as soon as nothing is in flight.
      const suggested = continueAsNewSuggested(this.input);
      if (suggested && this.quiet()) return continueJourney(this.input, this.continued());
      this.status.operatorDeadline = new Date(Date.now() + this.operatorDecisionMs).toISOString();
      this.readModel.write(this.status);
      await condition(() => this.version !== seen || (suggested && this.quiet()), this.operatorDecisionMs);
      this.status.operatorDeadline = null;
      if (this.version === seen && suggested && this.quiet()) continue;
      // An action accepted in the task the deadline fired in still counts: the loop serves it.
      if (this.version === seen)
        return this.close(
          'needs_attention',
          `no operator decision within ` +
            `${String(this.input.deadlines.operatorDecision ?? defaultDeadlines.operatorDecision)}`,
        );
    }
  }

  /**
   * Nothing in flight: every write and event delivered (a closed run's activities never run), no
   * operator action under way. An LOS that is down never holds an operator up: the journey waits
   * for them as usual meanwhile.
   */
  private quiet(): boolean {
    return (
      this.notifier.undelivered === 0 && !this.readModel.unwritten && this.inFlight.size === 0 && allHandlersFinished()
    );
  }

  /** What the next run needs to go on where this one stands. */
  private continued(): ContinuedJourney {
    return {
      status: this.status,
      freshNext: [...this.freshNext],
      announcedSteps: [...this.announcedSteps],
      announcedState: this.announcedState,
      eventCounts: this.notifier.counts(),
      evidence: this.evidence.renewals(),
    };
  }

  /**
   * Once every step is settled, before the journey tells the LOS it completed: evidence past its
   * window is renewed (journeyEvidence.ts), or, when it may not be, flagged with a reason line.
   */
  private beforeCompletion(): void {
    if (this.closing || this.cancelReason) return;
    if (!Object.values(this.status.steps).every((s) => settledStates.includes(s.state))) return;
    const now = Date.now();
    for (const [key, item] of this.evidence.renewable(this.status, now))
      if (!this.evidence.wasRenewed(key)) this.renewEvidence(key, item);
    this.staleLine = this.evidence.flagStale(this.status, now);
  }

  /**
   * A stale item's step runs a new attempt that buys anew: what the last attempt bought is spent
   * (an IDV sends the applicant a new link). A step that depends on it runs again after it, as an
   * operator's retry would have it, and its renewal is recorded as well.
   */
  private renewEvidence(key: string, item: NonNullable<JourneyStep['evidence']>): void {
    const step = this.status.steps[key] as JourneyStep;
    const reason = staleReasonOf(item);
    this.evidence.renew(key, item, reason);
    const last = step.attempts.at(-1);
    if (last) last.needSpent = true;
    this.freshNext.add(key);
    Object.assign(step, { state: 'pending', reason });
    const dependents = Object.entries(this.status.steps).filter(
      ([, dependent]) => dependent.dependsOn === key && dependent.state === 'completed',
    );
    this.resetDependents(key);
    for (const [dependentKey, dependent] of dependents)
      if (dependent.evidence && !this.evidence.wasRenewed(dependentKey))
        this.evidence.renew(dependentKey, dependent.evidence, `runs again after ${key} (${reason})`);
  }

  /** Pending steps whose dependency (if any) has completed. */
  private runnable(): string[] {
    return Object.entries(this.status.steps)
      .filter(([key, step]) => step.state === 'pending' && !this.scopes.has(key) && this.dependencyMet(step))
      .map(([key]) => key);
  }

  private dependencyMet(step: JourneyStep): boolean {
    return !step.dependsOn || this.status.steps[step.dependsOn]?.state === 'completed';
  }

  /** Pending behind a dependency that will not complete without an operator. */
  private blocked(step: JourneyStep): boolean {
    const dependency = step.dependsOn ? this.status.steps[step.dependsOn] : undefined;
    return (
      step.state === 'pending' &&
      dependency !== undefined &&
      !['pending', 'completed', ...activeStates].includes(dependency.state)
    );
  }

  /** Starts the next attempt of a step as a child workflow, in a scope of its own. */
  private launch(key: string): void {
    const step = this.status.steps[key] as JourneyStep;
    const attempt = step.attempt + 1;
    const workflowId = attemptWorkflowId(this.input.caseId, key, attempt);
    const requestedBecause = step.attempts.length > 0 ? (step.reason ?? null) : null;
    const fresh = this.freshNext.delete(key);
    const continuation = this.continuation(key, step, fresh);
    Object.assign(step, {
      attempt,
      workflowId,
      need: continuation.need,
      state: 'running',
      providerIds: {},
      lastEvent: null,
      reason: null,
      detail: null,
      links: {},
      error: null,
      actions: [],
      evidenceDate: null,
    });
    step.attempts.push({
      attempt,
      workflowId,
      state: 'running',
      providerIds: {},
      reason: null,
      requestedBecause,
      need: continuation.need,
      fresh: fresh || undefined,
    });
    const scope = new CancellationScope();
    this.scopes.set(key, scope);
    const planned = this.plan.get(key) as PlannedStep;
    scope
      .run(() =>
        planned.start({
          stepKey: key,
          attempt,
          workflowId,
          startedAt: new Date(Date.now()).toISOString(),
          continuation,
        }),
      )
      .then(
        (result) => this.settle(key, attempt, result),
        (error) => this.settle(key, attempt, failedAttempt(error)),
      )
      .finally(() => {
        if (this.status.steps[key]?.attempt === attempt) this.scopes.delete(key);
        this.version++;
      });
  }

  /**
   * What the next attempt of a step works for: the same need as the last attempt (same keys, and
   * what the provider holds for it), or the next one when the last is known spent or an operator
   * asked for a fresh purchase. The first attempt of a run continues what `journey retry` carried.
   */
  private continuation(key: string, step: JourneyStep, fresh: boolean): Continuation {
    const carried = this.input.carryOver?.purchases?.[key];
    const ownAttempts = step.attempts.filter((a) => !a.carriedOver);
    const last = ownAttempts.at(-1);
    const current = step.need ?? 0;
    const spent = last ? last.needSpent === true : carried?.needSpent === true;
    const need = current === 0 ? 1 : fresh || spent ? current + 1 : current;
    const sameNeed = ownAttempts.filter((a) => a.need === need);
    const providerIds = Object.assign(
      {},
      need === carried?.need ? carried.providerIds : {},
      ...sameNeed.map((a) => a.providerIds),
    ) as Record<string, string>;
    // Links the person was sent that they may still complete (client/openRequests.ts).
    const openRequests = openRequestsOf(ownAttempts, carried?.openRequests);
    return {
      need,
      purchase: purchaseKey(this.input.caseId, key, need),
      fresh,
      providerIds,
      openRequests,
    };
  }

  /**
   * An attempt's final status replaces the step's, unless an operator has moved on since (retried,
   * waived). What it bought is recorded whatever happened: a waived attempt keeps its ids.
   */
  private settle(key: string, attempt: number, result: Partial<StepStatus>): void {
    const step = this.status.steps[key] as JourneyStep;
    const record = step.attempts.find((a) => a.attempt === attempt);
    if (record) {
      record.providerIds = { ...record.providerIds, ...result.providerIds };
      if (result.needSpent) record.needSpent = true;
      if (record.state !== 'waived') Object.assign(record, { state: result.state, reason: result.reason ?? null });
    }
    if (step.attempt !== attempt) return;
    if (step.state === 'waived') {
      step.providerIds = { ...step.providerIds, ...result.providerIds };
      if (result.detail) step.detail = result.detail;
      return;
    }
    if (!activeStates.includes(step.state)) return;
    Object.assign(step, result);
    if (result.state !== 'completed') return;
    const renewal = this.evidence.completed(key, step, result, Date.now());
    if (renewal) this.refreshed.push(renewal);
  }

  private registerHandlers(): void {
    setHandler(journeyStatusQuery, () => this.status);
    setHandler(stepReportSignal, ({ stepKey: reportKey, seq, status: reported }) => {
      const { stepKey, attempt } = parseAttemptReportKey(reportKey);
      const step = this.status.steps[stepKey];
      if (
        !step ||
        step.attempt !== attempt ||
        !activeStates.includes(step.state) ||
        seq <= (this.lastReport.get(reportKey) ?? 0)
      )
        return;
      this.lastReport.set(reportKey, seq);
      Object.assign(step, reported);
      const record = step.attempts[step.attempts.length - 1];
      if (record) Object.assign(record, { state: reported.state, providerIds: reported.providerIds });
      this.version++;
    });
    setHandler(cancelJourneySignal, ({ reason }) => {
      this.cancelReason ??= reason ?? 'cancelled by an operator';
      this.version++;
    });
    setHandler(retryStepUpdate, ({ step: key, reason, fresh }) => this.retry(key, reason ?? null, fresh === true), {
      validator: ({ step }) => this.validateRetry(step),
    });
    setHandler(waiveStepUpdate, ({ step: key, reason }) => this.waive(key, reason), {
      validator: ({ step, reason }) => this.validateWaive(step, reason),
    });
    setHandler(resolveJourneyPicklistUpdate, ({ providerId }) => this.resolvePicklist(providerId), {
      validator: ({ providerId }) => this.validatePicklist(providerId),
    });
  }

  /** The step an action names, unless the journey is closing or another action on it is under way. */
  private knownStep(key: unknown): JourneyStep {
    if (this.ended || this.cancelReason || this.cancelledScope?.consideredCancelled)
      throw new Error(this.closingRefusal());
    const step = typeof key === 'string' ? this.status.steps[key] : undefined;
    if (!step)
      throw new Error(
        `unknown step ${JSON.stringify(key)}; the steps of this journey are: ` +
          `${Object.keys(this.status.steps).join(', ')}`,
      );
    const inFlight = this.inFlight.get(key as string);
    if (inFlight)
      throw new Error(
        `a ${inFlight} of ${String(key)} is under way; send yours once it has ` +
          `answered, against the step as it then stands`,
      );
    return step;
  }

  private closingRefusal(): string {
    if (this.ended && this.ended.state !== 'cancelled') return endedRefusal(this.ended.state, this.ended.reason);
    return (
      `the journey is being cancelled (` +
      `${this.cancelReason ?? 'cancelled through Temporal'}); no further ` +
      `operator actions`
    );
  }

  /**
   * Waits for an accepted action to take effect. A native cancel delivered in the same workflow task
   * as the action is applied after its validator passed, and the main loop may end in the task
   * that accepted it (its deadline ran out, its last step settled): the action then answers with
   * the refusal its validator would give now, never waiting on a loop that has gone.
   */
  private async untilActed(done: () => boolean): Promise<void> {
    try {
      await condition(() => done() || this.ended !== null);
    } catch (error) {
      if (!isCancellation(error)) throw error;
      throw ApplicationFailure.nonRetryable(this.closingRefusal(), 'JourneyClosing');
    }
    if (!done()) throw ApplicationFailure.nonRetryable(this.closingRefusal(), 'JourneyClosing');
  }

  /**
   * Waits for the main loop's pass over the version an action made, so that its answer comes after
   * the commands the change leads to. A reset reapplies an accepted Update and the signals after it in
   * one task, live in the history's order and in replay with the Update last; an answer that did
   * not wait would come before the loop's commands live and after them in replay, and the run
   * would not replay (test/replay/resetAcrossWaive.test.ts).
   */
  private async untilServed(changed: number): Promise<void> {
    await this.untilActed(() => this.servedVersion >= changed);
  }

  private validateRetry(key: string): void {
    const step = this.knownStep(key);
    if (step.dependsOn && !this.dependencyMet(step))
      throw new Error(
        `${key} waits for ${step.dependsOn}, which is ` +
          `${this.status.steps[step.dependsOn]?.state}; retry ${step.dependsOn} first`,
      );
    if (retryableStates.includes(step.state)) return;
    throw new Error(`${key} is ${step.state}; a step can be retried when it is ${retryableStates.join(', ')}`);
  }

  /**
   * A new attempt of the step. One still running (waiting for the applicant, say) is stopped first:
   * its creating calls finish and what they bought is recorded, and the new attempt continues it
   * (the same need) unless `fresh` asks for a new purchase.
   */
  private async retry(
    key: string,
    reason: string | null,
    fresh: boolean,
  ): Promise<{ step: string; status: JourneyStep }> {
    const step = this.status.steps[key] as JourneyStep;
    const before = step.attempt;
    this.inFlight.set(key, 'retryStep');
    if (fresh) this.freshNext.add(key);
    this.scopes.get(key)?.cancel();
    Object.assign(step, {
      state: 'pending',
      reason: reason ?? (fresh ? 'retried by an operator, with a fresh purchase' : 'retried by an operator'),
    });
    this.resetDependents(key);
    const changed = ++this.version;
    try {
      await this.untilActed(() => step.attempt > before || this.cancelReason !== null);
      await this.untilServed(changed);
    } finally {
      this.inFlight.delete(key);
    }
    return { step: key, status: step };
  }

  /** Steps that depend on `key` run again after it, as new attempts that buy anew (their input changed). */
  private resetDependents(key: string): void {
    for (const [dependentKey, dependent] of Object.entries(this.status.steps)) {
      if (dependent.dependsOn !== key || dependent.state === 'waived') continue;
      this.scopes.get(dependentKey)?.cancel();
      if (dependent.attempts.length > 0) this.freshNext.add(dependentKey);
      if (dependent.state !== 'pending')
        Object.assign(dependent, { state: 'pending', reason: `runs again after ${key}` });
    }
  }

  private validateWaive(key: string, reason: unknown): void {
    const step = this.knownStep(key);
    if (typeof reason !== 'string' || reason.trim() === '')
      throw new Error('waiving a step needs a reason (it is recorded with the step)');
    if (settledStates.includes(step.state))
      throw new Error(`${key} is ${step.state} already; only a step that is not completed or waived can be waived`);
  }

  /**
   * The operator accepts the step as it stands. An attempt still running is stopped; the answer
   * comes once it has ended, with whatever its creating calls bought in the step's ids.
   */
  private async waive(key: string, reason: string): Promise<{ step: string; status: JourneyStep }> {
    const step = this.status.steps[key] as JourneyStep;
    const running = this.scopes.get(key);
    this.inFlight.set(key, 'waiveStep');
    Object.assign(step, { state: 'waived', reason: `waived: ${reason}`, actions: [] });
    const record = step.attempts[step.attempts.length - 1];
    if (record) Object.assign(record, { state: 'waived', reason: `waived: ${reason}` });
    const changed = ++this.version;
    try {
      if (running) {
        running.cancel();
        await this.untilActed(() => this.scopes.get(key) !== running);
      }
      await this.untilServed(changed);
    } finally {
      this.inFlight.delete(key);
    }
    return { step: key, status: step };
  }

  private picklistStep(): JourneyStep {
    const step = this.knownStep(creditReportKey);
    const picklist = (step.detail as CreditReportDetail | null)?.picklist;
    if (step.state !== 'waiting' || !picklist?.length)
      throw new Error(`${creditReportKey} is ${step.state}; there is no picklist waiting to be resolved`);
    return step;
  }

  private validatePicklist(providerId: unknown): void {
    const step = this.picklistStep();
    const problem = picklistChoiceProblem((step.detail as CreditReportDetail).picklist, String(providerId));
    if (problem) throw new Error(problem);
  }

  /** One choice at a time: a second operator's choice is refused while the first is under way. */
  private async resolvePicklist(providerId: string): Promise<{ step: string; status: JourneyStep }> {
    const step = this.status.steps[creditReportKey] as JourneyStep;
    const attempt = step.attempt;
    this.inFlight.set(creditReportKey, 'resolvePicklist');
    try {
      await getExternalWorkflowHandle(step.workflowId).signal(choosePicklistEntrySignal, { provider_id: providerId });
      // Answer once the step has the resolved report (or has ended otherwise).
      await this.untilActed(() => step.attempt !== attempt || (step.state !== 'waiting' && step.state !== 'running'));
    } finally {
      this.inFlight.delete(creditReportKey);
    }
    return { step: creditReportKey, status: step };
  }

  /** Recomputes the journey's state and reasons; publishes a changed state as a search attribute. */
  private refresh(): void {
    const steps = Object.entries(this.status.steps);
    for (const [key, step] of steps) {
      // Said of every step behind its dependency, not only a blocked one: a reason never goes stale.
      if (step.state === 'pending' && step.dependsOn && !this.dependencyMet(step))
        step.reason = `waits for ${step.dependsOn}, which is ${this.status.steps[step.dependsOn]?.state}`;
      step.actions = this.actionsFor(key, step);
    }
    this.status.reasons = steps
      .filter(([, s]) => !settledStates.includes(s.state))
      .map(([key, s]) => `${key}: ${s.state}${s.reason ? ` (${s.reason})` : ''}${nextActions(s)}`);
    if (this.staleLine && this.status.reasons.length === 0) this.status.reasons.push(this.staleLine);
    this.status.evidence = evidenceOfSteps(this.status.steps);
    const waitsForOperator = steps.some(
      ([, s]) => attentionStates.includes(s.state) || isPicklistWaiting(s) || this.blocked(s),
    );
    const state: JourneyState = steps.every(([, s]) => settledStates.includes(s.state))
      ? 'completed'
      : waitsForOperator
        ? 'needs_attention'
        : 'running';
    this.announceCompletedSteps();
    this.announceRefreshedEvidence();
    this.publish(state);
  }

  /** `case.evidence_refreshed` for each renewal whose new attempt completed. */
  private announceRefreshedEvidence(): void {
    for (const { step, attempt, item, reason } of this.refreshed.splice(0))
      this.notifier.send(
        'case.evidence_refreshed',
        this.status.state,
        this.status.reasons,
        { step: { key: step, attempt } },
        { kind: item.kind, reason, validUntil: item.validUntil },
      );
  }

  /**
   * What an operator can do about a step now: the actions its validators accept (a test walks them);
   * none once the journey is closing.
   */
  private actionsFor(key: string, step: JourneyStep): string[] {
    if (this.closing) return [];
    if (this.blocked(step)) return [`retryStep ${step.dependsOn}`, `waiveStep ${key}`];
    if (isPicklistWaiting(step)) return ['resolvePicklist', `retryStep ${key}`, `waiveStep ${key}`];
    if (step.state === 'waived') return this.hasUnsettledDependant(key) ? [`retryStep ${key}`] : [];
    if (attentionStates.includes(step.state) || step.state === 'waiting')
      return [`retryStep ${key}`, `waiveStep ${key}`];
    return [];
  }

  private hasUnsettledDependant(key: string): boolean {
    return Object.values(this.status.steps).some((s) => s.dependsOn === key && !settledStates.includes(s.state));
  }

  private publish(state: JourneyState): void {
    this.status.state = state;
    const steps = Object.values(this.status.steps);
    const done = steps.filter((s) => settledStates.includes(s.state)).length;
    setCurrentDetails(currentDetails(state, this.status.reasons[0] ?? null, `${done} of ${steps.length} steps done`));
    if (state === this.publishedState) return;
    this.publishedState = state;
    upsertSearchAttributes([{ key: journeyStateSearchAttribute, value: state }]);
    if (!this.closing) this.announceState(state);
  }

  private announceCompletedSteps(): void {
    for (const [key, step] of Object.entries(this.status.steps)) {
      const id = `${key}@${step.attempt}`;
      if (step.state !== 'completed' || this.announcedSteps.has(id)) continue;
      this.announcedSteps.add(id);
      this.notifier.send('case.step_completed', this.status.state, this.status.reasons, {
        step: { key, attempt: step.attempt },
      });
    }
  }

  /** `running` is not an event of its own, but a later `needs_attention` is news again. */
  private announceState(state: JourneyState): void {
    if (state === this.announcedState) return;
    this.announcedState = state;
    if (state === 'running') return;
    const attemptsStarted = Object.values(this.status.steps).reduce((sum, step) => sum + step.attempt, 0);
    this.notifier.send(`case.${state}`, state, this.status.reasons, { attemptsStarted });
  }

  /** Ends the journey: running attempts are cancelled and waited for; unfinished steps say why. */
  private async close(state: JourneyState, reason: string): Promise<void> {
    this.closing = true;
    // A native cancel can end the operator's wait before the loop clears its deadline.
    this.status.operatorDeadline = null;
    this.ended = { state, reason };
    const stopped = [...this.scopes.keys()];
    for (const scope of this.scopes.values()) scope.cancel();
    await condition(() => this.scopes.size === 0);
    for (const [key, step] of Object.entries(this.status.steps)) {
      const unfinished =
        ['pending', ...activeStates].includes(step.state) || (stopped.includes(key) && step.state === 'cancelled');
      if (state === 'cancelled' && unfinished) Object.assign(step, { state: 'cancelled', reason });
    }
    this.refresh();
    this.publish(state);
    if (state !== 'completed') this.status.reasons.unshift(reason);
    this.announceState(state);
  }
}

/** What an action is told once the main loop has ended other than by a cancel. */
function endedRefusal(state: JourneyState, reason: string | null): string {
  const why = reason ? ` (${reason})` : '';
  const next = state === 'completed' ? '' : '; once it has closed, journey retry starts a new run';
  return `the journey has ended ${state}${why} and is closing; it takes no further operator actions${next}`;
}

/** The reasons line's tail: what an operator can do, when the step waits for one. */
function nextActions(step: JourneyStep): string {
  const actions = step.actions ?? [];
  if (actions.length === 0 || (step.state === 'waiting' && !isPicklistWaiting(step))) return '';
  return `: ${actions.join(' or ')}`;
}

function isPicklistWaiting(step: JourneyStep): boolean {
  return step.state === 'waiting' && Boolean((step.detail as CreditReportDetail | null)?.picklist?.length);
}

/** A child that failed instead of returning its status: cancelled, or failed with the provider's words. */
function failedAttempt(error: unknown): Partial<StepStatus> {
  if (isCancellation(error)) return { state: 'cancelled', reason: 'the attempt was cancelled' };
  const providerError = providerErrorOf(error);
  return { state: 'failed', reason: providerError.message, error: providerError };
}
