/**
 * Every state a step reaches names a way forward, on the real workflow code with the provider's
 * answers stubbed (test/support/journeyLogic.ts). Each state is reached by the journey's own
 * decisions on what the provider, the applicant or Temporal did: 503s past the call budget, a 500
 * whose purchase nobody finds, an IDV check nobody finished, a rejected bank connection, a picklist,
 * an outage within the budget, a waiver, a step cancelled in Temporal. In each, the step's
 * `actions` and its reason line name the ways forward, and every one of them is accepted, each on
 * a journey of its own in that state.
 */
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateStage,
  type WorkflowHandle,
  type WorkflowUpdateHandle,
} from '@temporalio/client';
import { classifyHttpFailure } from '../../activities/providerFailures';
import { purchaseOutcomeUnknown } from '../../activities/purchaseGuard';
import type { CreditReportSummary } from '../../case-file/summaries';
import { waitForStatus } from '../../cli/watchStatus';
import type { CreditReportDetail } from '../../client/creditReportMessages';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
  type JourneyStatus,
  type JourneyStep,
  type OnboardCaseWorkflow,
  type OperatorActionResult,
} from '../../client/journeyMessages';
import type { PicklistEntry } from '../../provider';
import { startJourneyLogic, type JourneyLogic, pendingIdvRequest } from '../support/journeyLogic';

/** Cases and people whose creating calls the provider answers with this status, until the test ends it. */
const down = new Map<string, 500 | 503>();

/** The failure the provider client raises when the provider answers `status` (activities/providerFailures.ts). */
function providerAnswered(status: number, path: string) {
  const body = JSON.stringify({ message: 'scripted by the test' });
  return classifyHttpFailure(new Response(body, { status }), body, 'POST', `https://provider.example${path}`);
}

/**
 * What a creating call for `subject` meets while the provider is down. A 503 made nothing: every
 * try is answered 503. A 500 may have made it: the first try is answered 500, and each later try
 * is the purchase guard's search (activities/purchaseGuard.ts), which finds nothing and gives up.
 */
function whileDown(subject: string, path: string, callKey: string | undefined): void {
  const status = down.get(subject);
  if (status === undefined) return;
  const { attempt, scheduledTimestampMs } = Context.current().info;
  if (status === 503 || attempt === 1) throw providerAnswered(status, path);
  const since = new Date(scheduledTimestampMs).toISOString();
  throw purchaseOutcomeUnknown(callKey ?? path, since, 'the provider lists nothing made since then');
}

const entry = (n: number): PicklistEntry => ({
  provider_id: `CR-${n}`,
  company_name: `Way Forward ${n} Ltd`,
  company_number: null,
  country_code: 'GB',
  address: null,
});

const report = (companyId: string, chosen?: PicklistEntry): CreditReportSummary => ({
  case_file: null,
  report_id: `report-${companyId}`,
  company_id: companyId,
  status: chosen ? 'Complete' : 'TooManyResults',
  picklist: chosen ? null : [entry(1), entry(2)],
  report: chosen
    ? {
        provider_id: chosen.provider_id,
        company_name: chosen.company_name,
        company_number: null,
        country_code: 'GB',
        credit_score: 600,
      }
    : null,
});

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic(
    {
      requestIncomeEmployerVerificationAndSubscribe: async ({ caseId, idempotencyKey }) => {
        whileDown(caseId, `/v2/cases/${caseId}/income-employer`, idempotencyKey);
        return { request_id: `income-${caseId}`, status: 'Pending' };
      },
      openIdentityVerificationRequest: async ({ personId, idempotencyKey }) => {
        whileDown(personId, `/v2/persons/${personId}/identity-verifications`, idempotencyKey);
        const requestId = `idv-${randomUUID()}`;
        return pendingIdvRequest(personId, requestId);
      },
      createOpenBankingConnectionAndSubscribe: async ({ caseId }) => ({
        bank_connection_id: `conn-${randomUUID()}`,
        entity_type: 'case',
        entity_id: caseId,
        status: 'Pending',
        connection_link: `https://bank.example/${caseId}`,
      }),
      requestCreditReport: async ({ company_id }) => report(company_id),
      resolveCreditReportPicklist: async ({ report_id, provider_id }) =>
        report(
          report_id.replace(/^report-/, ''),
          [entry(1), entry(2)].find((e) => e.provider_id === provider_id),
        ),
    },
    { reportOutages: true },
  );
});
afterAll(async () => {
  await logic?.stop();
});

interface Case {
  caseId: string;
  personId: string;
}

const deadlines = {
  identityVerification: '60 seconds',
  banking: '60 seconds',
  affordability: '60 seconds',
  incomeEmployer: '60 seconds',
  picklist: '60 seconds',
  providerCalls: '60 seconds',
};

async function start(c: Case, input: Record<string, unknown>): Promise<WorkflowHandle<OnboardCaseWorkflow>> {
  const extra = (input.deadlines ?? {}) as Record<string, string>;
  return logic.start({ caseId: c.caseId, ...input, deadlines: { ...deadlines, ...extra } });
}

const newCase = (): Case => ({ caseId: randomUUID(), personId: randomUUID() });
const idv = (c: Case) => `identity-verification/${c.personId}`;
const picklistOf = (step: JourneyStep | undefined) => (step?.detail as CreditReportDetail | null)?.picklist ?? [];
const waitingWith = (step: JourneyStep | undefined, id: string) =>
  step?.state === 'waiting' && step.attempt === 1 && Boolean(step.providerIds[id]);
const reasonLine = (s: JourneyStatus, key: string) => s.reasons.find((r) => r.startsWith(`${key}: `));
const retryOrWaive = (step: string) => [`retryStep ${step}`, `waiveStep ${step}`];

interface Reached {
  c: Case;
  handle: WorkflowHandle<OnboardCaseWorkflow>;
  status: JourneyStatus;
}
interface State {
  name: string;
  reach: () => Promise<Reached>;
  /** The actions each step names in that state (steps not named name none). */
  actions: (c: Case) => Record<string, string[]>;
}

const within = (handle: WorkflowHandle, predicate: (s: JourneyStatus) => boolean) =>
  waitForStatus(handle, journeyStatusQuery, predicate, 30_000);

/** A journey whose income-and-employer call meets the provider down, answering `status`. */
async function incomeEmployerDown(status: 500 | 503, providerCalls: string) {
  const c = newCase();
  down.set(c.caseId, status);
  const handle = await start(c, { steps: { incomeEmployer: true }, deadlines: { providerCalls } });
  return { c, handle };
}

/** Banking waiting for the applicant, affordability behind it. */
async function bankingWaiting(): Promise<Reached> {
  const c = newCase();
  const handle = await start(c, { steps: { banking: 'open_banking', affordability: true } });
  return { c, handle, status: await within(handle, (s) => waitingWith(s.steps.banking, 'bank_connection_id')) };
}

async function idvWaiting(
  c: Case = newCase(),
  extra: Record<string, unknown> = {},
  until: (s: JourneyStatus) => boolean = (s) => waitingWith(s.steps[idv(c)], 'request_id'),
): Promise<Reached> {
  const handle = await start(c, {
    people: [{ personId: c.personId }],
    steps: { identityVerification: true },
    ...extra,
  });
  return { c, handle, status: await within(handle, until) };
}

const states: State[] = [
  {
    // A 503 made nothing: the call is sent again until its budget ends, and the step fails.
    name: 'failed (the provider answered 503 past the call budget)',
    reach: async () => {
      const { c, handle } = await incomeEmployerDown(503, '2 seconds');
      return { c, handle, status: await within(handle, (s) => s.steps['income-employer']?.state === 'failed') };
    },
    actions: () => ({ 'income-employer': retryOrWaive('income-employer') }),
  },
  {
    // A 500 may have made the request: it is looked for, never sent again, and the search finds nothing.
    name: 'needs attention (purchase outcome unknown: the provider answered 500)',
    reach: async () => {
      const { c, handle } = await incomeEmployerDown(500, '10 seconds');
      const status = await within(
        handle,
        (s) =>
          s.steps['income-employer']?.state === 'needs_attention' &&
          /^purchase outcome unknown since /.test(s.steps['income-employer']?.reason ?? ''),
      );
      return { c, handle, status };
    },
    actions: () => ({ 'income-employer': retryOrWaive('income-employer') }),
  },
  {
    name: 'expired (the applicant did not finish the IDV check in time)',
    reach: () => {
      const c = newCase();
      return idvWaiting(
        c,
        { deadlines: { identityVerification: '1 second' } },
        (s) => s.steps[idv(c)]?.state === 'expired',
      );
    },
    actions: (c) => ({ [idv(c)]: retryOrWaive(idv(c)) }),
  },
  {
    name: 'needs_attention (the applicant rejected the bank connection), affordability blocked pending',
    reach: async () => {
      const { c, handle, status } = await bankingWaiting();
      const banking = status.steps.banking!;
      await logic.deliver(
        banking.workflowId,
        { kind: 'case-banking', id: c.caseId },
        'OpenBankingProcessing.Completed',
        {
          bank_connection_id: banking.providerIds.bank_connection_id,
          status: 'Rejected',
          connected_accounts: [],
        },
      );
      const blocked = await within(
        handle,
        (s) =>
          s.steps.banking?.state === 'needs_attention' &&
          s.steps.affordability?.reason?.startsWith('waits for banking, which is needs_attention') === true,
      );
      return { c, handle, status: blocked };
    },
    actions: () => ({
      banking: retryOrWaive('banking'),
      affordability: ['retryStep banking', 'waiveStep affordability'],
    }),
  },
  {
    name: 'waiting for the applicant (IDV)',
    reach: () => idvWaiting(),
    actions: (c) => ({ [idv(c)]: retryOrWaive(idv(c)) }),
  },
  {
    name: 'waiting for a picklist choice',
    reach: async () => {
      const c = newCase();
      const company = { company_id: `company-${c.caseId}` };
      const handle = await start(c, { company, steps: { creditReport: true } });
      const waiting = (s: JourneyStatus) =>
        s.steps['credit-report']?.state === 'waiting' && picklistOf(s.steps['credit-report']).length > 0;
      return { c, handle, status: await within(handle, waiting) };
    },
    actions: () => ({ 'credit-report': ['resolvePicklist', ...retryOrWaive('credit-report')] }),
  },
  {
    name: 'waiting for the provider (503s within the call budget)',
    reach: () => {
      const c = newCase();
      down.set(c.personId, 503);
      return idvWaiting(c, {}, (s) => /^provider unavailable since/.test(s.steps[idv(c)]?.reason ?? ''));
    },
    actions: (c) => ({ [idv(c)]: retryOrWaive(idv(c)) }),
  },
  {
    name: 'waived with a dependant unsettled (banking), the dependant blocked pending',
    reach: async () => {
      const { c, handle } = await bankingWaiting();
      await handle.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements on paper' }] });
      const blocked = await within(
        handle,
        (s) => s.steps.affordability?.reason?.startsWith('waits for banking, which is waived') === true,
      );
      return { c, handle, status: blocked };
    },
    actions: () => ({
      banking: ['retryStep banking'],
      affordability: ['retryStep banking', 'waiveStep affordability'],
    }),
  },
  {
    name: "cancelled (the step's workflow cancelled in Temporal)",
    reach: async () => {
      const { c, handle, status } = await idvWaiting();
      await logic.env.client.workflow.getHandle(status.steps[idv(c)]!.workflowId).cancel();
      return { c, handle, status: await within(handle, (s) => s.steps[idv(c)]?.state === 'cancelled') };
    },
    actions: (c) => ({ [idv(c)]: retryOrWaive(idv(c)) }),
  },
];

/**
 * Sends one action as an operator would; resolves once the journey accepted it (its validator
 * passed), or rejects with the refusal.
 */
function perform({ handle, status }: Reached, action: string): Promise<WorkflowUpdateHandle<OperatorActionResult>> {
  const [verb, step] = action.split(' ') as [string, string];
  const accepted = { waitForStage: WorkflowUpdateStage.ACCEPTED } as const;
  if (verb === 'resolvePicklist')
    return handle.startUpdate(resolveJourneyPicklistUpdate, {
      args: [{ providerId: picklistOf(status.steps['credit-report'])[0]!.provider_id }],
      ...accepted,
    });
  if (verb === 'retryStep')
    return handle.startUpdate(retryStepUpdate, { args: [{ step, reason: 'walking the states' }], ...accepted });
  if (verb === 'waiveStep')
    return handle.startUpdate(waiveStepUpdate, { args: [{ step, reason: 'walking the states' }], ...accepted });
  throw new Error(`an action the test does not know: ${action}`);
}

/** Each step names the expected actions, and a step waiting for an operator names them in its reason line. */
function expectNamedActions(state: State, { c, status }: Reached): void {
  const expected = state.actions(c);
  for (const [key, step] of Object.entries(status.steps)) {
    expect({ state: state.name, step: key, actions: step.actions }).toEqual({
      state: state.name,
      step: key,
      actions: expected[key] ?? [],
    });
    const waitsOnItsOwn = step.state === 'waiting' && picklistOf(step).length === 0;
    if (expected[key] && !waitsOnItsOwn && step.state !== 'waived')
      expect({ state: state.name, line: reasonLine(status, key) }).toEqual({
        state: state.name,
        line: expect.stringMatching(new RegExp(`: ${expected[key]!.join(' or ')}$`)),
      });
  }
}

/** Ends a walk's journey: cancelled, unless the action completed it. */
async function endJourney(handle: WorkflowHandle<OnboardCaseWorkflow>): Promise<void> {
  await handle.signal(cancelJourneySignal, { reason: 'walk done' }).catch((error: unknown) => {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  });
  expect(['cancelled', 'completed']).toContain((await handle.result()).state);
}

/** A fresh journey in the state; the `index`-th action it names is performed, and must be accepted. */
async function walk(state: State, index: number): Promise<string> {
  const reached = await state.reach();
  const { c, handle } = reached;
  expectNamedActions(state, reached);
  const action = [...new Set(Object.values(state.actions(c)).flat())][index] as string;
  // A refusal by the validator comes as the Update's failure, with the journey's words as its cause.
  const refused = (error: unknown) => {
    const words = error instanceof WorkflowUpdateFailedError ? error.cause?.message : String(error);
    throw new Error(`${state.name}: ${action} was refused: ${words}`);
  };
  const update = await perform(reached, action).catch(refused);
  // Sent. The provider comes back (an action during an outage finishes its creating call first),
  // and the action answers with the step it acted on.
  down.delete(c.caseId);
  down.delete(c.personId);
  const answer = await update.result().catch(refused);
  expect(answer.step).toBe(action === 'resolvePicklist' ? 'credit-report' : action.split(' ')[1]);
  await endJourney(handle);
  return `${state.name}: ${action}`;
}

test('in each state a step reaches, every action it names is accepted (each on a journey of its own in that state)', async () => {
  const someone = newCase();
  const walks = states.flatMap((state) =>
    [...new Set(Object.values(state.actions(someone)).flat())].map((_, i) => walk(state, i)),
  );
  // Every walk ends before the test does (none is left calling a stopped worker), failed or not.
  const outcomes = await Promise.allSettled(walks);
  const failures = outcomes.flatMap((o) =>
    o.status === 'rejected' ? [o.reason instanceof Error ? o.reason.message : String(o.reason)] : [],
  );
  expect(failures).toEqual([]);
  expect(outcomes).toHaveLength(20);
}, 60_000);
