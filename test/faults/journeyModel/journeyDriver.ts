/**
 * Runs one sequence (sequences.ts) against a real journey: a case, a company whose report comes
 * back with a picklist, one person to verify, open banking and affordability after it, with short
 * deadlines and a short provider call budget. The operator acts through the same client
 * operations as the CLI and the case API (client/journeyOperations.ts), the applicant through
 * the simulator's control calls, and a reset through Temporal's own `ResetWorkflowExecution`.
 *
 * After the sequence the journey is driven to its end the way an operator with no other knowledge
 * would: the applicant acts on every link the journey holds, the picklist is resolved, and when
 * the journey waits only for an operator the first action it lists is sent, which must be
 * accepted (the journey never leaves an operator without a way forward); a step whose purchase
 * outcome is unknown (its creating call's answer lost, and nothing found what it made) is retried
 * once to look again and then with `fresh`, as docs/operations.md tells an operator; a closed
 * journey that did not complete is run again with `journey retry`. What the journey says is then held against the
 * provider's ledger and the case file (invariants.ts).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Stack } from '../../../cli/stack';
import type { Control } from '../../support/faultHarness/faultJourneys';
import { JourneyClosedError } from '../../../client/journeyErrors';
import { readCaseStatus } from '../../../client/caseReads';
import type { OnboardCaseInput } from '../../../client/journeyInput';
import { type JourneyStatus, type JourneyStep, type OperatorActionResult } from '../../../client/journeyMessages';
import {
  cancelJourney,
  resolvePicklist,
  retryStep,
  startJourney,
  waiveStep,
  type JourneyClientContext,
} from '../../../client/journeyOperations';
import { planJourneyRetry, retryJourney } from '../../../client/journeyRetry';
import { operatorUpdateId } from '../../../client/operatorRequestId';
import type { CreditReportDetail } from '../../../client/creditReportMessages';
import { keptHistory } from './keptHistory';
import {
  describeAction,
  type Action,
  type FaultKind,
  type FaultRoute,
  type ResetPoint,
  type Sequence,
  type StepRole,
} from './sequences';

/** Short clocks: a step that waits too long expires within a sequence; an operator is waited for much longer. */
export const modelDeadlines = {
  identityVerification: '25 seconds',
  banking: '25 seconds',
  affordability: '25 seconds',
  picklist: '20 seconds',
  reconcileAfter: '3 seconds',
  providerCalls: '30 seconds',
  operatorDecision: '30 minutes',
} as const;

const retryable = ['needs_attention', 'failed', 'expired', 'cancelled', 'waiting', 'waived'];

/** The reason of a step whose creating call's outcome nobody could find (activities/purchaseGuard.ts). */
export const OUTCOME_UNKNOWN = /^purchase outcome unknown since /;
/** How long the read model may take to show an accepted operator action (it is written by activity). */
const READ_MODEL_CATCH_UP_MS = 30_000;

export const roleOfStep = (key: string): StepRole =>
  key.startsWith('identity-verification/') ? 'idv' : (key as StepRole);
const settled = ['completed', 'waived'];

export interface ModelEnvironment {
  stack: Stack;
  ctx: JourneyClientContext;
  control: Control;
}

/** What the operator did that the provider's ledger may show: fresh purchases asked for. */
export interface OperatorRecord {
  /** `retryStep { fresh: true }` answered as accepted, by step role. */
  fresh: Record<StepRole, number>;
  /** Fresh retries whose answer was lost (a worker restart, a timeout): they may have been taken. */
  freshUnknown: Record<StepRole, number>;
  /** Picklist choices answered as accepted. */
  picklistChoices: string[];
  resets: number;
  cancels: number;
  journeyRetries: number;
  /** Operator actions the journey accepted, refused, or left unanswered (a transient error). */
  accepted: number;
  refused: number;
  unknown: number;
}

export interface DrivenJourney {
  n: number;
  caseId: string;
  companyId: string;
  personId: string;
  /** Every run of `case/<caseId>` seen: the first, after each reset and each journey retry. */
  runIds: Set<string>;
  record: OperatorRecord;
  /** What happened, one line each, with milliseconds since the start. */
  log: string[];
  /** Broken invariants found while driving (an action the journey listed and then refused, a stuck journey). */
  violations: string[];
  final?: JourneyStatus;
}

const zero = (): Record<StepRole, number> => ({ 'credit-report': 0, idv: 0, banking: 0, affordability: 0 });

export async function newJourney(env: ModelEnvironment, n: number): Promise<DrivenJourney> {
  const caseId = (await env.control('/cases', { income_employer_outcome: 'Complete' })).case_id as string;
  // Two registry entries with the same number: every report for this company comes back TooManyResults.
  const company = await env.control('/companies', {
    company_name: `Model ${n} Ltd`,
    company_number: `MD${String(n).padStart(6, '0')}`,
    country_code: 'GB',
    registry_copies: 2,
  });
  const personId = (await env.control('/persons', {})).person_id as string;
  return {
    n,
    caseId,
    companyId: company.company_id as string,
    personId,
    runIds: new Set(),
    record: {
      fresh: zero(),
      freshUnknown: zero(),
      picklistChoices: [],
      resets: 0,
      cancels: 0,
      journeyRetries: 0,
      accepted: 0,
      refused: 0,
      unknown: 0,
    },
    log: [],
    violations: [],
  };
}

export function journeyInputOf(j: Pick<DrivenJourney, 'caseId' | 'companyId' | 'personId'>): OnboardCaseInput {
  return {
    caseId: j.caseId,
    company: { company_id: j.companyId },
    people: [{ personId: j.personId }],
    steps: { creditReport: true, identityVerification: true, banking: 'open_banking', affordability: true },
    deadlines: modelDeadlines,
  };
}

export const stepKeyOf = (j: Pick<DrivenJourney, 'personId'>, role: StepRole): string =>
  role === 'idv' ? `identity-verification/${j.personId}` : role;

export class JourneyDriver {
  private readonly started = Date.now();
  private readonly handle: WorkflowHandle;

  constructor(
    private readonly env: ModelEnvironment,
    readonly j: DrivenJourney,
  ) {
    this.handle = env.stack.client.workflow.getHandle(`case/${j.caseId}`);
  }

  private note(line: string): void {
    this.j.log.push(`${String(Date.now() - this.started).padStart(6)} ms  ${line}`);
  }

  private violate(what: string): void {
    this.j.violations.push(what);
    this.note(`VIOLATION ${what}`);
  }

  async start(): Promise<void> {
    const started = await startJourney(this.env.ctx, journeyInputOf(this.j));
    if (started.runId) this.j.runIds.add(started.runId);
    this.note(`started ${started.workflowId}`);
  }

  /**
   * The case as its read model shows it (what the case API, the console and the CLI read), or
   * undefined before the journey's first write. Never the `status` query: one that reaches a
   * worker which does not hold the run, while the run's next workflow task is scheduled, can have
   * that task's events applied early, so that the live worker takes the task in two activations
   * where a replay takes one (docs/reliability.md, "Journey runs that replay").
   */
  async status(): Promise<JourneyStatus | undefined> {
    return readCaseStatus(this.env.stack.caseFile, this.j.caseId).catch(() => undefined);
  }

  private async runOf(): Promise<{ runId: string; status: string } | undefined> {
    const description = await this.handle.describe().catch(() => undefined);
    if (!description) return undefined;
    this.j.runIds.add(description.runId);
    return { runId: description.runId, status: description.status.name };
  }

  /** Polls until `predicate` holds or `timeoutMs` passes; answers the last status either way. */
  private async until(predicate: (s: JourneyStatus) => boolean, timeoutMs: number): Promise<JourneyStatus | undefined> {
    const deadline = Date.now() + timeoutMs;
    let last: JourneyStatus | undefined;
    for (;;) {
      last = (await this.status()) ?? last;
      if (last && (predicate(last) || last.state === 'completed' || last.state === 'cancelled')) return last;
      if (Date.now() > deadline) return last;
      await new Promise((r) => setTimeout(r, 400));
    }
  }

  private step(s: JourneyStatus | undefined, role: StepRole): JourneyStep | undefined {
    return s?.steps[stepKeyOf(this.j, role)];
  }

  async run(sequence: Sequence): Promise<void> {
    for (const [i, action] of sequence.entries()) {
      // Whatever the journey went through so far, once it waits only for an operator it says how to go on.
      const s = await this.status();
      const problem = s?.operatorDeadline ? idleProblem(s) : undefined;
      if (problem) this.violate(`before action ${i + 1}: ${problem}`);
      this.note(`action ${i + 1}: ${describeAction(action)}`);
      await this.act(action, i);
    }
  }

  /**
   * One action. An operator action first waits (bounded) for a state in which it makes sense, then
   * for its `delayMs`: that pause is part of the generated scenario (where in a call's flight the
   * action lands), not a wait for something to happen.
   */
  private async act(action: Action, i: number): Promise<void> {
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    switch (action.kind) {
      case 'retry': {
        await this.until((s) => retryable.includes(this.step(s, action.step)?.state ?? ''), 10_000);
        await wait(action.delayMs);
        const step = stepKeyOf(this.j, action.step);
        const reason = action.fresh ? 'model: a fresh purchase' : 'model: retry';
        const send = (updateId?: string) =>
          this.operator(`retryStep ${step}${action.fresh ? ' fresh' : ''}`, () =>
            retryStep(this.env.ctx, this.j.caseId, step, reason, { fresh: action.fresh, updateId }),
          );
        if (!action.repeat) {
          const outcome = await send();
          this.countFresh(action, outcome);
          return;
        }
        // The same request twice at once, as a client that timed out and retried sends it: one attempt.
        const updateId = operatorUpdateId('retry-step', `model-${this.j.n}-${i}-${randomUUID()}`);
        const [a, b] = await Promise.all([send(updateId), send(updateId)]);
        this.countFresh(action, a);
        if (a.accepted && b.accepted && a.result.status.attempt !== b.result.status.attempt) {
          this.violate(
            `one request id answered two attempts (${a.result.status.attempt} and ${b.result.status.attempt}): the repeat acted again`,
          );
        }
        if (a.accepted !== b.accepted && a.outcome !== 'unknown' && b.outcome !== 'unknown')
          this.violate(`one request id answered accepted once and refused once`);
        return;
      }
      case 'waive': {
        await this.until((s) => !settled.includes(this.step(s, action.step)?.state ?? 'completed'), 10_000);
        await wait(action.delayMs);
        const step = stepKeyOf(this.j, action.step);
        const waive = this.operator(`waiveStep ${step}`, () =>
          waiveStep(this.env.ctx, this.j.caseId, step, 'model: waived'),
        );
        if (!action.race) {
          await waive;
          return;
        }
        await Promise.all([
          waive,
          this.operator(`retryStep ${step} (racing the waiver)`, () =>
            retryStep(this.env.ctx, this.j.caseId, step, 'model: racing a waiver'),
          ),
        ]);
        return;
      }
      case 'resolve': {
        const s = await this.until((st) => picklistOf(this.step(st, 'credit-report')) !== undefined, 15_000);
        const picklist = picklistOf(this.step(s, 'credit-report'));
        if (!picklist) {
          // No picklist waiting: the journey must refuse a choice, whatever it is.
          await this.operator('resolvePicklist (none waiting)', () =>
            resolvePicklist(this.env.ctx, this.j.caseId, 'not-on-any-picklist'),
          );
          return;
        }
        await wait(action.delayMs);
        const chosen = picklist[action.entry]?.provider_id ?? picklist[0]!.provider_id;
        const other = picklist[1 - action.entry]?.provider_id ?? chosen;
        const choose = (providerId: string) =>
          this.operator(`resolvePicklist ${providerId}`, () =>
            resolvePicklist(this.env.ctx, this.j.caseId, providerId),
          );
        const outcomes = action.race ? await Promise.all([choose(chosen), choose(other)]) : [await choose(chosen)];
        const accepted = outcomes.filter((o) => o.accepted);
        // A choice whose answer was lost may have been taken: it counts as one an operator made.
        for (const [k, o] of outcomes.entries())
          if (o.accepted || o.outcome === 'unknown') this.j.record.picklistChoices.push(k === 0 ? chosen : other);
        if (accepted.length > 1)
          this.violate(`two operators' different picklist choices were both answered as successful`);
        return;
      }
      case 'cancel': {
        await wait(action.delayMs);
        this.j.record.cancels++;
        if (action.native) {
          await this.handle.cancel().then(
            () => this.note('native cancel sent'),
            (error: Error) => this.note(`native cancel not sent: ${error.message}`),
          );
        } else {
          await cancelJourney(this.env.ctx, this.j.caseId, 'model: cancelled').then(
            () => this.note('cancel signal sent'),
            (error: Error) => this.note(`cancel signal not sent: ${error.message}`),
          );
        }
        return;
      }
      case 'reset':
        await wait(action.delayMs);
        await this.reset(action.point);
        return;
      case 'applicantIdv':
        await this.applicantIdv(action.outcome, action.link);
        return;
      case 'applicantBank':
        await this.applicantBank(action.outcome);
        return;
      case 'fault':
        await this.fault(action.route, action.fault, action.times);
        return;
    }
  }

  private countFresh(action: { step: StepRole; fresh: boolean }, outcome: Outcome): void {
    if (!action.fresh) return;
    if (outcome.accepted) this.j.record.fresh[action.step]++;
    else if (outcome.outcome === 'unknown') this.j.record.freshUnknown[action.step]++;
  }

  /**
   * Sends an operator action and classifies its answer: accepted, refused (by the journey or the
   * client), or unknown.
   */
  private async operator(what: string, send: () => Promise<OperatorActionResult>): Promise<Outcome> {
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 90_000).unref());
    try {
      const result = await Promise.race([send(), timeout]);
      if (result === 'timeout') {
        this.violate(`${what} was not answered within 90 s`);
        this.j.record.unknown++;
        return { accepted: false, outcome: 'unknown' };
      }
      this.j.record.accepted++;
      this.note(`${what}: accepted (attempt ${result.status.attempt}, ${result.status.state})`);
      return { accepted: true, outcome: 'accepted', result };
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError || error instanceof JourneyClosedError) {
        this.j.record.refused++;
        this.note(`${what}: refused (${(error.cause as Error | undefined)?.message ?? error.message})`);
        return { accepted: false, outcome: 'refused' };
      }
      this.j.record.unknown++;
      this.note(`${what}: no answer (${(error as Error).name}: ${(error as Error).message})`);
      return { accepted: false, outcome: 'unknown' };
    }
  }

  private async reset(point: ResetPoint): Promise<void> {
    const run = await this.runOf();
    if (!run) return this.note('reset: the journey cannot be described just now');
    const history = await this.env.stack.client.workflow.getHandle(`case/${this.j.caseId}`, run.runId).fetchHistory();
    const tasks = (history.events ?? [])
      .filter((e) => e.workflowTaskCompletedEventAttributes)
      .map((e) => Number(e.eventId));
    if (tasks.length === 0) return this.note('reset: no completed workflow task yet');
    const index =
      point === 'first' ? 0 : point === 'last' ? tasks.length - 1 : Math.floor(point.fraction * tasks.length);
    const eventId = tasks[index] as number;
    try {
      const answer = await this.env.stack.client.workflowService.resetWorkflowExecution({
        namespace: this.env.stack.client.options.namespace,
        workflowExecution: { workflowId: `case/${this.j.caseId}`, runId: run.runId },
        reason: 'model: reset',
        // protobufjs takes a number where the type says Long.
        workflowTaskFinishEventId: eventId as never,
        requestId: randomUUID(),
      });
      this.j.record.resets++;
      if (answer.runId) this.j.runIds.add(answer.runId);
      this.note(
        `reset ${run.status.toLowerCase()} run ${run.runId} to event ${eventId} (task ${index + 1} of ${tasks.length}): new run ${answer.runId}`,
      );
    } catch (error) {
      this.note(`reset refused: ${(error as Error).message}`);
    }
  }

  private async ledger(query: string): Promise<Ledger> {
    return (await this.env.control(`/ledger?${query}`)) as Ledger;
  }

  private async applicantIdv(outcome: 'Approved' | 'Declined' | 'expire', link: 'current' | 'oldest'): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const pending = (await this.ledger(`person_id=${this.j.personId}`)).identityVerifications.filter(
        (r) => r.status === 'Pending',
      );
      const current = this.step(await this.status(), 'idv')?.providerIds.request_id;
      const target =
        link === 'current' ? (pending.find((r) => r.request_id === current) ?? pending.at(-1)) : pending[0];
      if (target) {
        const path =
          outcome === 'expire'
            ? `/identity-verifications/${target.request_id}/expire`
            : `/identity-verifications/${target.request_id}/complete`;
        await this.env.control(path, outcome === 'expire' ? {} : { verification_status: outcome }).then(
          () => this.note(`applicant: IDV ${target.request_id} ${outcome}`),
          (error: Error) => this.note(`applicant: IDV ${target.request_id} not settled: ${error.message}`),
        );
        return;
      }
      if (Date.now() > deadline) return this.note('applicant: no IDV link pending');
      await new Promise((r) => setTimeout(r, 400));
    }
  }

  private async applicantBank(outcome: 'Connected' | 'Rejected'): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const pending = (await this.ledger(`case_id=${this.j.caseId}`)).openBankingConnections.filter(
        (c) => c.status === 'Pending',
      );
      const current = this.step(await this.status(), 'banking')?.providerIds.bank_connection_id;
      const target = pending.find((c) => c.bank_connection_id === current) ?? pending.at(-1);
      if (target) {
        await this.env
          .control(`/open-banking-connections/${target.bank_connection_id}/complete`, { status: outcome, accounts: 1 })
          .then(
            () => this.note(`applicant: bank connection ${target.bank_connection_id} ${outcome}`),
            (error: Error) =>
              this.note(`applicant: bank connection ${target.bank_connection_id} not settled: ${error.message}`),
          );
        return;
      }
      if (Date.now() > deadline) return this.note('applicant: no bank connection pending');
      await new Promise((r) => setTimeout(r, 400));
    }
  }

  private async fault(route: FaultRoute, fault: FaultKind, times: number): Promise<void> {
    const { method, path } = {
      idvCreate: { method: 'POST', path: `/v2/persons/${this.j.personId}/identity-verifications` },
      idvList: { method: 'GET', path: `/v2/persons/${this.j.personId}/identity-verifications` },
      bankCreate: { method: 'POST', path: `/v2/cases/${this.j.caseId}/open-banking-connections` },
      affordabilityCreate: { method: 'POST', path: `/v2/cases/${this.j.caseId}/affordability-insights` },
    }[route];
    const scripted = {
      lost: { response_lost: true },
      '503': { status: 503, retry_after: '1' },
      slow: { latency_ms: 3_000 },
      slowLost: { response_lost: true, latency_ms: 3_000 },
    }[fault];
    await this.env.control('/faults', { method, path, times, ...scripted });
  }

  /**
   * Drives the journey to `completed` as an operator and an applicant who only read its status:
   * see the header. Answers the final status, or undefined when it could not get there.
   */
  async finish(timeoutMs = 240_000): Promise<JourneyStatus | undefined> {
    this.note('finishing');
    const deadline = Date.now() + timeoutMs;
    const actedOn = new Set<string>();
    let refusedFirst = 0;
    // The step an accepted action moved on, as the journey listed it then: the read model catches up
    // a moment after the action's answer (the journey writes it by activity), and until it does the
    // driver reads again rather than act on a view the journey has left.
    let moved: { key: string; attempt: number; state: string; at: number } | undefined;
    // An action the journey lists must move it: the same one accepted again and again is a loop with no way out.
    const listedTimes = new Map<string, number>();
    // Needs (step@need) whose unknown purchase outcome the operator has looked for again once.
    const lookedAgain = new Set<string>();
    let last: JourneyStatus | undefined;
    for (;;) {
      if (Date.now() > deadline) {
        const run = await this.runOf();
        const kept = run ? await keptHistory(this.env, this.j, run.runId).catch(() => '') : '';
        this.violate(
          `the journey did not complete within ${timeoutMs / 1000} s of being driven: ${last ? summary(last) : 'no status'}${await this.taskFailures()}${kept}`,
        );
        return undefined;
      }
      const run = await this.runOf();
      const s = await this.status();
      if (!run || !s) {
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      last = s;
      if (run.status !== 'RUNNING') {
        if (s.state === 'completed' && run.status === 'COMPLETED') {
          this.note(`completed: ${summary(s)}`);
          this.j.final = s;
          return s;
        }
        if (this.j.record.journeyRetries >= 4) {
          this.violate(
            `the journey closed ${s.state} (${run.status}) after ${this.j.record.journeyRetries} journey retries`,
          );
          return undefined;
        }
        // A closed journey's way forward: run it again, carrying over what it finished.
        try {
          const withFile = { ...this.env.ctx, readModel: this.env.stack.caseFile };
          const plan = await planJourneyRetry(withFile, this.j.caseId);
          const runId = await retryJourney(withFile, plan);
          this.j.record.journeyRetries++;
          this.j.runIds.add(runId);
          this.note(
            `journey retry of the ${s.state} (${run.status}) run: carried ${plan.carriedOver.join(', ') || 'nothing'}, rerun ${plan.rerun.map((r) => r.step).join(', ')}: run ${runId}`,
          );
        } catch (error) {
          // The closed run's status cannot be read just now (a worker restarting): asked again at the next round.
          this.note(`journey retry not started: ${(error as Error).message}`);
          await new Promise((r) => setTimeout(r, 1_000));
        }
        continue;
      }
      // Its final state is written and the run is closing: nothing to act on until it has closed.
      if (s.state === 'completed' || s.state === 'cancelled') {
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }

      let acted = false;
      const picklist = picklistOf(s.steps['credit-report']);
      const creditReport = s.steps['credit-report'];
      if (picklist && creditReport && !actedOn.has(`picklist@${creditReport.attempt}`)) {
        actedOn.add(`picklist@${creditReport.attempt}`);
        const outcome = await this.operator(`resolvePicklist ${picklist[0]!.provider_id}`, () =>
          resolvePicklist(this.env.ctx, this.j.caseId, picklist[0]!.provider_id),
        );
        if (outcome.accepted || outcome.outcome === 'unknown')
          this.j.record.picklistChoices.push(picklist[0]!.provider_id);
        acted = true;
      }
      const idv = this.step(s, 'idv');
      const requestId = idv?.state === 'waiting' ? idv.providerIds.request_id : undefined;
      if (requestId && !actedOn.has(requestId)) {
        actedOn.add(requestId);
        await this.env
          .control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' })
          .then(
            () => this.note(`applicant: IDV ${requestId} Approved`),
            (error: Error) => this.note(`applicant: IDV ${requestId} not settled: ${error.message}`),
          );
        acted = true;
      }
      const banking = s.steps.banking;
      const connectionId = banking?.state === 'waiting' ? banking.providerIds.bank_connection_id : undefined;
      if (connectionId && !actedOn.has(connectionId)) {
        actedOn.add(connectionId);
        await this.env
          .control(`/open-banking-connections/${connectionId}/complete`, { status: 'Connected', accounts: 1 })
          .then(
            () => this.note(`applicant: bank connection ${connectionId} Connected`),
            (error: Error) => this.note(`applicant: bank connection ${connectionId} not settled: ${error.message}`),
          );
        acted = true;
      }

      const shown = moved && s.steps[moved.key];
      if (moved && (shown?.attempt !== moved.attempt || shown.state !== moved.state)) moved = undefined;
      if (moved && !acted) {
        if (Date.now() - moved.at > READ_MODEL_CATCH_UP_MS) {
          this.violate(
            `the read model still showed ${moved.key} ${moved.state}#${moved.attempt} ${READ_MODEL_CATCH_UP_MS / 1000} s after an action on it was accepted: ${summary(s)}`,
          );
          return undefined;
        }
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }

      // Nothing runs: only an operator can move the journey, and it must say how.
      if (!acted && s.operatorDeadline) {
        const problem = idleProblem(s);
        if (problem) {
          this.violate(problem);
          return undefined;
        }
        const [key, step] = Object.entries(s.steps).find(([, st]) => (st.actions ?? []).length > 0) as [
          string,
          JourneyStep,
        ];
        const first = (step.actions as string[])[0] as string;
        // A purchase whose outcome is unknown: each need is looked for again once, then bought anew.
        const need = `${key}@${step.need ?? step.attempt}`;
        const unknownOutcome = first === `retryStep ${key}` && OUTCOME_UNKNOWN.test(step.reason ?? '');
        const counted = unknownOutcome ? `${first} (purchase outcome unknown, ${need})` : first;
        const times = (listedTimes.get(counted) ?? 0) + 1;
        listedTimes.set(counted, times);
        if (times > 8) {
          this.violate(
            `the journey listed "${first}" first ${times} times, and taking it never moved the journey on: ${summary(s)}`,
          );
          return undefined;
        }
        let outcome: Outcome;
        if (unknownOutcome && lookedAgain.has(need)) {
          const fresh = { step: roleOfStep(key), fresh: true };
          outcome = await this.operator(`${first} fresh (purchase outcome unknown)`, () =>
            retryStep(this.env.ctx, this.j.caseId, key, 'model: buy anew, the outcome is unknown', { fresh: true }),
          );
          this.countFresh(fresh, outcome);
        } else {
          if (unknownOutcome) lookedAgain.add(need);
          outcome = await this.listedAction(first, s);
        }
        // Refusals count from the last accepted action.
        if (outcome.accepted) {
          refusedFirst = 0;
          moved = { key, attempt: step.attempt, state: step.state, at: Date.now() };
        }
        if (!outcome.accepted && outcome.outcome === 'refused') {
          // Refused against the status it was listed in? Read again: another signal may have moved the journey.
          const again = await this.status();
          if (
            again &&
            again.operatorDeadline &&
            JSON.stringify(again.steps[key]?.actions) === JSON.stringify(step.actions) &&
            ++refusedFirst >= 2
          ) {
            this.violate(
              `the first action ${key} lists, "${first}", was refused while the journey waited for an operator: ${summary(again)}`,
            );
            return undefined;
          }
        }
        acted = true;
      }
      if (!acted) await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** What Temporal says about a journey that stopped moving: its failed workflow tasks and stuck children, if any. */
  private async taskFailures(): Promise<string> {
    const notes: string[] = [];
    const history = await this.handle.fetchHistory().catch(() => undefined);
    const failed = (history?.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes);
    const lastFailure = failed.at(-1)?.workflowTaskFailedEventAttributes?.failure?.message;
    if (failed.length > 0) notes.push(`${failed.length} failed workflow task(s), the last: ${lastFailure}`);
    const description = await this.handle.describe().catch(() => undefined);
    const pending = description?.raw.pendingWorkflowTask;
    if (pending?.attempt && pending.attempt > 1) notes.push(`a workflow task pending at attempt ${pending.attempt}`);
    for (const child of description?.raw.pendingChildren ?? []) notes.push(`child ${child.workflowId} pending`);
    return notes.length > 0 ? `; Temporal: ${notes.join('; ')}` : '';
  }

  /** Sends an action as the journey lists it (`retryStep banking`, `waiveStep affordability`, `resolvePicklist`). */
  private listedAction(action: string, s: JourneyStatus): Promise<Outcome> {
    const [verb, step] = action.split(' ') as [string, string | undefined];
    switch (verb) {
      case 'retryStep':
        return this.operator(`listed ${action}`, () =>
          retryStep(this.env.ctx, this.j.caseId, step as string, 'model: the listed action'),
        );
      case 'waiveStep':
        return this.operator(`listed ${action}`, () =>
          waiveStep(this.env.ctx, this.j.caseId, step as string, 'model: the listed action'),
        );
      case 'resolvePicklist': {
        const entry = picklistOf(s.steps['credit-report'])?.[0]?.provider_id ?? 'none';
        this.j.record.picklistChoices.push(entry);
        return this.operator(`listed resolvePicklist ${entry}`, () =>
          resolvePicklist(this.env.ctx, this.j.caseId, entry),
        );
      }
      default:
        this.violate(`the journey lists an action no client can send: "${action}"`);
        return Promise.resolve({ accepted: false, outcome: 'refused' });
    }
  }
}

type Outcome =
  | { accepted: true; outcome: 'accepted'; result: OperatorActionResult }
  | { accepted: false; outcome: 'refused' | 'unknown' };

export interface Ledger {
  creditReports: {
    report_id: string;
    company_id: string;
    idempotency_key: string | null;
    status: string;
    had_picklist: boolean;
    picklist_resolved: boolean;
    picklist_resolutions: number;
  }[];
  picklistResolutions: { report_id: string; provider_id: string; idempotency_key: string | null }[];
  identityVerifications: { request_id: string; person_id: string; idempotency_key: string | null; status: string }[];
  openBankingConnections: {
    bank_connection_id: string;
    case_id: string;
    idempotency_key: string | null;
    status: string;
  }[];
  affordabilityInsights: { request_id: string; case_id: string; idempotency_key: string | null; status: string }[];
}

function picklistOf(step: JourneyStep | undefined) {
  if (step?.state !== 'waiting') return undefined;
  const picklist = (step.detail as CreditReportDetail | null)?.picklist;
  return picklist?.length ? picklist : undefined;
}

/** Why a journey waiting only for an operator leaves them no way forward, if it does. */
export function idleProblem(s: JourneyStatus): string | undefined {
  const unsettled = Object.entries(s.steps).filter(([, st]) => !settled.includes(st.state));
  if (unsettled.length === 0) return undefined;
  const listing = Object.entries(s.steps).filter(([, st]) => (st.actions ?? []).length > 0);
  if (listing.length === 0)
    return `the journey waits for an operator (${s.state}) and no step lists an action: ${summary(s)}`;
  // Every step an operator must act on says what to do, in its actions and in its reason line.
  for (const [key, st] of unsettled) {
    if (st.state === 'running' || st.state === 'waiting') continue;
    if ((st.actions ?? []).length === 0)
      return `${key} is ${st.state} and lists no action while the journey waits for an operator: ${summary(s)}`;
    const line = s.reasons.find((r) => r.startsWith(`${key}:`));
    if (!line?.includes((st.actions as string[])[0] as string))
      return `${key}'s reason line does not name its first action "${(st.actions as string[])[0]}": ${line ?? '(no line)'}`;
  }
  return undefined;
}

export function summary(s: JourneyStatus): string {
  const steps = Object.entries(s.steps).map(
    ([k, st]) =>
      `${k.replace(/^identity-verification\/.*/, 'idv')}=${st.state}#${st.attempt}${st.actions?.length ? `[${st.actions.join('|')}]` : ''}`,
  );
  return `${s.state}${s.operatorDeadline ? ' (idle)' : ''}: ${steps.join(' ')}`;
}
