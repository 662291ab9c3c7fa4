/**
 * `npm run record-histories -- <generation>`: runs each scenario on an embedded stack and writes
 * the history of every workflow involved to test/replay/histories/, for the replay test to guard
 * determinism. A generation is named for the release whose workflow code records it; until the
 * first release, the baseline is re-recorded under that release's name, `1.0`, after each change
 * to workflow code (docs/versioning.md).
 *
 * The stack encrypts payloads; the files keep them decoded (json/plain), so the fixtures replay
 * under any key. `journey replay` in the CLI test covers the replay of encrypted histories.
 */
import type { IdentityVerificationDetail } from '../../workflows/identityVerificationWorkflow';
import type { CreditReportDetail } from '../../client/creditReportMessages';
import type { Company } from '../../simulator/store';
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { METADATA_ENCODING_KEY, type Duration, type Payload, type PayloadCodec } from '@temporalio/common';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { encodeHistory, type HistoryFile } from './historyFiles';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { creditReportWorkflow } from '../../workflows/creditReportWorkflow';
import { resolveCreditReportPicklistUpdate } from '../../client/creditReportMessages';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import {
  cancelJourneySignal,
  journeyStatusQuery,
  resolveJourneyPicklistUpdate,
  retryStepUpdate,
  waiveStepUpdate,
} from '../../client/journeyMessages';
import type { OnboardCaseInput } from '../../client/journeyInput';
import { journeyHistories } from '../../client/journeyReplay';
import { planJourneyRetry, retryJourney } from '../../client/journeyRetry';
import type { temporal } from '@temporalio/proto';
import { stepStatusQuery } from '../../client/stepMessages';
import { deliverSignal, resourceStateQuery, subscribeSignal } from '../../client/resourceMessages';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { installRuntimeLogging } from '../../worker/runtimeLogging';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { waitUntil } from '../support/waitUntil';

const out = path.join(__dirname, 'histories');
const tag = process.argv[2] ?? '';
if (!/^\d+\.\d+$/.test(tag))
  throw new Error(
    `name the generation by its release, such as 1.0 (npm run record-histories -- 1.0); got ${JSON.stringify(tag)}`,
  );

const control = (stack: Stack, path: string, body?: unknown, method?: string) =>
  simulatorControl(stack.simulator)(path, body, method);

async function save(client: Client, codec: PayloadCodec, scenario: string, workflowIds: string[]): Promise<void> {
  const histories = new Map<string, temporal.api.history.v1.IHistory>();
  for (const workflowId of workflowIds)
    histories.set(workflowId, await client.workflow.getHandle(workflowId).fetchHistory());
  await write(codec, scenario, histories);
}

async function write(
  codec: PayloadCodec,
  scenario: string,
  histories: Map<string, temporal.api.history.v1.IHistory>,
): Promise<void> {
  for (const [workflowId, history] of histories) {
    await decodeInPlace(history, codec);
    // The hash keeps the names of attempts (`…/identity-verification/<person>/2`) apart once cut short.
    const digest = createHash('sha256').update(workflowId).digest('hex').slice(0, 8);
    const name = `${tag}__${scenario}__${workflowId.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 70)}_${digest}.json`;
    const file: HistoryFile = { generation: tag, scenario, workflowId, history: encodeHistory(history) };
    writeFileSync(path.join(out, name), JSON.stringify(file, null, 1));
    console.log(`  ${name}`);
  }
}

const isPayload = (value: unknown): value is Payload =>
  Boolean(
    value &&
    typeof value === 'object' &&
    (value as Payload).metadata &&
    METADATA_ENCODING_KEY in ((value as Payload).metadata as object),
  );

/** Replaces every payload in the history with its decoded form. */
async function decodeInPlace(node: unknown, codec: PayloadCodec): Promise<void> {
  if (!node || typeof node !== 'object' || node instanceof Uint8Array) return;
  for (const [key, value] of Object.entries(node)) {
    if (isPayload(value)) (node as Record<string, unknown>)[key] = (await codec.decode([value]))[0];
    else await decodeInPlace(value, codec);
  }
}

/** Documents go to the case file first; journeys name them. */
async function payslipReference(stack: Stack, caseId: string) {
  const stored = await stack.caseFile.putDocument({ caseId, fileName: 'p.pdf', content: Buffer.from('PAYSLIP') });
  return { document_id: stored.document_id, file_name: stored.file_name };
}

/** Runs a journey to its end and saves its history with every step and resource history of its case. */
async function journeyScenario(
  stack: Stack,
  scenario: string,
  run: (caseId: string) => Promise<void>,
  input: (caseId: string) => Promise<OnboardCaseInput>,
): Promise<void> {
  const caseId = (
    await control(stack, '/cases', { income_employer_outcome: scenario.includes('waived') ? 'Failed' : 'Complete' })
  ).case_id as string;
  await startOnboardCase(stack.client, {
    workflowId: `case/${caseId}`,
    taskQueue: stack.temporal.taskQueue,
    args: [await input(caseId)],
  });
  await run(caseId);
  // The latest run (a retried journey has two).
  const outcome = await stack.client.workflow
    .getHandle(`case/${caseId}`)
    .result()
    .catch((error: Error) => ({ state: `closed: ${error.message}` }));
  console.log(`${scenario}: ${outcome.state}`);
  await write(
    new EncryptionCodec(stack.payloadKeys),
    scenario,
    await journeyHistories({ client: stack.client, taskQueue: stack.temporal.taskQueue }, caseId),
  );
}

/**
 * A journey whose one step is a person's IDV, the applicant completing it after `polls` polls of
 * the waiting request (a poll reads its result, GET /v2/identity/{request_id}; reconcileAfter 1 s,
 * backing off to `cap`). With `webhookLost` the provider drops the outcome's delivery, so a poll
 * must find it.
 */
async function lateApplicantScenario(
  stack: Stack,
  deadlines: Record<string, string>,
  scenario: string,
  options: { polls: number; cap: string; webhookLost?: boolean },
): Promise<void> {
  await journeyScenario(
    stack,
    scenario,
    async (caseId) => {
      const h = stack.client.workflow.getHandle(`case/${caseId}`);
      const idv = (s: { steps: Record<string, { state: string; providerIds: Record<string, string> }> }) =>
        Object.entries(s.steps).find(([key]) => key.startsWith('identity-verification/'))![1];
      const asked = await waitForStatus(
        h,
        journeyStatusQuery,
        (s) => idv(s).state === 'waiting' && Boolean(idv(s).providerIds.request_id),
      );
      const requestId = idv(asked).providerIds.request_id as string;
      const polls = () =>
        stack.simulator.store.requests.filter((r) => r.method === 'GET' && r.path === `/v2/identity/${requestId}`)
          .length;
      await waitUntil(`${options.polls} polls of the waiting request`, () => polls() >= options.polls, {
        timeoutMs: 60_000,
      });
      if (options.webhookLost) await control(stack, '/fault-rates', { delivery_drop_rate: 1 }, 'PUT');
      await control(stack, `/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
      if (!options.webhookLost) return;
      await waitForStatus(h, journeyStatusQuery, (s) => idv(s).state === 'completed');
      await control(stack, '/fault-rates', { delivery_drop_rate: 0 }, 'PUT');
    },
    async (caseId) => ({
      caseId,
      people: [{ personId: (await control(stack, '/persons', {})).person_id }],
      steps: { identityVerification: true },
      deadlines: { ...deadlines, reconcileAfter: '1 second', reconcileBackoffCap: options.cap },
    }),
  );
}

async function main(): Promise<void> {
  installRuntimeLogging();
  mkdirSync(out, { recursive: true });
  const stack = await startStack({
    embedded: { logFile: path.join(os.tmpdir(), 'record-histories-temporal.log') },
    processingDelayMs: 20,
    simulatorSeed: 99,
    spoolDir: path.join(os.tmpdir(), `record-spool-${process.pid}`),
  });
  const fast = {
    identityVerification: '30 seconds',
    banking: '30 seconds',
    documents: '30 seconds',
    affordability: '30 seconds',
    incomeEmployer: '30 seconds',
    picklist: '30 seconds',
  };
  const companies = (await control(stack, '/companies')) as Company[];
  const byName = (n: string) => companies.find((c) => c.company_name === n)!.company_id;
  try {
    const person = (await control(stack, '/persons', {})).person_id as string;
    await journeyScenario(
      stack,
      'journey-completed',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const waiting = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) =>
            s.steps[`identity-verification/${person}`]?.state === 'waiting' && s.steps.banking?.state === 'waiting',
        );
        await control(
          stack,
          `/identity-verifications/${waiting.steps[`identity-verification/${person}`]!.providerIds.request_id}/complete`,
          { verification_status: 'Approved' },
        );
        await control(
          stack,
          `/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`,
          { status: 'Connected', accounts: 1 },
        );
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Acme Widgets Ltd') },
        people: [{ personId: person }],
        steps: {
          creditReport: true,
          identityVerification: true,
          banking: 'open_banking',
          documents: [await payslipReference(stack, caseId)],
          affordability: true,
          incomeEmployer: true,
        },
        deadlines: fast,
      }),
    );

    await journeyScenario(
      stack,
      'journey-recovered',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const idv = `identity-verification/${person}`;
        const waiting = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) =>
            s.steps[idv]?.state === 'waiting' &&
            s.steps.banking?.state === 'waiting' &&
            s.steps['credit-report']?.state === 'waiting',
        );
        const picklist = (waiting.steps['credit-report']!.detail as CreditReportDetail).picklist!;
        await h.executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId: picklist[0]!.provider_id }] });
        await control(stack, `/identity-verifications/${waiting.steps[idv]!.providerIds.request_id}/expire`, {});
        await control(
          stack,
          `/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`,
          { status: 'Rejected' },
        );
        await waitForStatus(h, journeyStatusQuery, (s) => s.operatorDeadline != null);
        await h.executeUpdate(retryStepUpdate, { args: [{ step: idv, reason: 'new link' }] });
        await h.executeUpdate(retryStepUpdate, { args: [{ step: 'banking' }] });
        const again = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) =>
            s.steps[idv]?.attempt === 2 &&
            s.steps[idv]?.state === 'waiting' &&
            s.steps.banking?.attempt === 2 &&
            s.steps.banking?.state === 'waiting',
        );
        await control(stack, `/identity-verifications/${again.steps[idv]!.providerIds.request_id}/complete`, {
          verification_status: 'Approved',
        });
        await control(
          stack,
          `/open-banking-connections/${again.steps.banking!.providerIds.bank_connection_id}/complete`,
          { status: 'Connected', accounts: 1 },
        );
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Ambiguous Foods Ltd') },
        people: [{ personId: person }],
        steps: { creditReport: true, identityVerification: true, banking: 'open_banking', affordability: true },
        deadlines: fast,
      }),
    );

    await journeyScenario(
      stack,
      'journey-waived',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        await waitForStatus(h, journeyStatusQuery, (s) => s.operatorDeadline != null);
        await h.executeUpdate(waiveStepUpdate, {
          args: [{ step: 'credit-report', reason: 'report bought elsewhere' }],
        });
        await h.executeUpdate(waiveStepUpdate, {
          args: [{ step: 'income-employer', reason: 'payslips seen in branch' }],
        });
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Nonumber Trading Ltd') },
        steps: { creditReport: true, incomeEmployer: true },
        deadlines: fast,
      }),
    );

    await journeyScenario(
      stack,
      'journey-cancelled',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        await waitForStatus(h, journeyStatusQuery, (s) =>
          Object.values(s.steps).every((step) => step.state === 'waiting'),
        );
        await h.cancel();
      },
      async (caseId) => ({
        caseId,
        people: [{ personId: (await control(stack, '/persons', {})).person_id }],
        steps: { identityVerification: true },
        deadlines: fast,
      }),
    );

    // No operator decision within the operator deadline: the journey closes needing attention.
    await journeyScenario(
      stack,
      'journey-operator-deadline',
      async () => undefined,
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Nonumber Trading Ltd') },
        steps: { creditReport: true },
        deadlines: { ...fast, operatorDecision: '2 seconds' },
      }),
    );

    // A cancelled journey retried (`journey retry`): the completed credit report carried over, a
    // new IDV attempt that the applicant completes.
    await journeyScenario(
      stack,
      'journey-retried',
      async (caseId) => {
        const ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue, readModel: stack.caseFile };
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const idv = (s: {
          steps: Record<string, { state: string; attempt: number; providerIds: Record<string, string> }>;
        }) => Object.entries(s.steps).find(([key]) => key.startsWith('identity-verification/'))![1];
        await waitForStatus(
          h,
          journeyStatusQuery,
          (s) => s.steps['credit-report']?.state === 'completed' && idv(s).state === 'waiting',
        );
        await h.signal(cancelJourneySignal, { reason: 'applicant asked to start again' });
        await h.result();
        await retryJourney(ctx, await planJourneyRetry(ctx, caseId));
        const again = await waitForStatus(
          stack.client.workflow.getHandle(`case/${caseId}`),
          journeyStatusQuery,
          (s) => idv(s).attempt === 2 && idv(s).state === 'waiting',
        );
        await control(stack, `/identity-verifications/${idv(again).providerIds.request_id}/complete`, {
          verification_status: 'Approved',
        });
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Acme Widgets Ltd') },
        people: [{ personId: (await control(stack, '/persons', {})).person_id }],
        steps: { creditReport: true, identityVerification: true },
        deadlines: fast,
      }),
    );

    // Operator actions that continue what the provider holds: a retry while the picklist
    // waits (the report read again, not bought), a retry of a waiting IDV (its request adopted),
    // then a fresh one (a new request) whose older link the applicant completes; banking waived
    // while affordability waits on it, then re-opened by a retry.
    await journeyScenario(
      stack,
      'journey-continued',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const idv = `identity-verification/${person}`;
        const first = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) =>
            s.steps[idv]?.state === 'waiting' &&
            s.steps.banking?.state === 'waiting' &&
            s.steps['credit-report']?.state === 'waiting',
        );
        await h.executeUpdate(retryStepUpdate, { args: [{ step: 'credit-report', reason: 'picklist shown again' }] });
        await h.executeUpdate(retryStepUpdate, { args: [{ step: idv, reason: 'applicant lost the link' }] });
        await waitForStatus(
          h,
          journeyStatusQuery,
          (s) => s.steps[idv]?.attempt === 2 && s.steps[idv]?.state === 'waiting',
        );
        await h.executeUpdate(retryStepUpdate, { args: [{ step: idv, reason: 'a new link', fresh: true }] });
        await h.executeUpdate(waiveStepUpdate, { args: [{ step: 'banking', reason: 'statements posted in' }] });
        await h.executeUpdate(retryStepUpdate, {
          args: [{ step: 'banking', reason: 'the applicant will connect after all' }],
        });
        const again = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) =>
            s.steps[idv]?.attempt === 3 &&
            s.steps[idv]?.state === 'waiting' &&
            s.steps.banking?.attempt === 2 &&
            s.steps.banking?.state === 'waiting' &&
            s.steps['credit-report']?.attempt === 2 &&
            s.steps['credit-report']?.state === 'waiting',
        );
        const picklist = (again.steps['credit-report']!.detail as CreditReportDetail).picklist!;
        await h.executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId: picklist[0]!.provider_id }] });
        await control(stack, `/identity-verifications/${first.steps[idv]!.providerIds.request_id}/complete`, {
          verification_status: 'Approved',
        });
        await control(
          stack,
          `/open-banking-connections/${again.steps.banking!.providerIds.bank_connection_id}/complete`,
          { status: 'Connected', accounts: 1 },
        );
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Ambiguous Foods Ltd') },
        people: [{ personId: person }],
        steps: { creditReport: true, identityVerification: true, banking: 'open_banking', affordability: true },
        deadlines: fast,
      }),
    );

    // The provider unavailable for a while: the step waits, told so, and goes on without an operator.
    await journeyScenario(
      stack,
      'provider-outage',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const idv = (s: {
          steps: Record<string, { state: string; reason: string | null; providerIds: Record<string, string> }>;
        }) => Object.entries(s.steps).find(([key]) => key.startsWith('identity-verification/'))![1];
        await waitForStatus(
          h,
          journeyStatusQuery,
          (s) => idv(s).state === 'waiting' && /provider unavailable/.test(idv(s).reason ?? ''),
        );
        const asked = await waitForStatus(
          h,
          journeyStatusQuery,
          (s) => idv(s).state === 'waiting' && Boolean(idv(s).providerIds.request_id),
        );
        await control(stack, `/identity-verifications/${idv(asked).providerIds.request_id}/complete`, {
          verification_status: 'Approved',
        });
      },
      async (caseId) => {
        const personId = (await control(stack, '/persons', {})).person_id as string;
        await control(stack, '/faults', {
          method: 'POST',
          path: `/v2/persons/${personId}/identity-verifications`,
          status: 503,
          times: 4,
        });
        return {
          caseId,
          people: [{ personId }],
          steps: { identityVerification: true },
          deadlines: { ...fast, providerCalls: '2 minutes' },
        };
      },
    );

    // The applicant acts late: the IDV's resource polls the provider after reconcileAfter,
    // then at doubling intervals up to the cap, until the applicant completes the request.
    await lateApplicantScenario(stack, fast, 'resource-polled-with-backoff', { polls: 3, cap: '4 seconds' });
    // The webhook is lost: the IDV's resource finds the outcome by polling, one activity
    // whose retries are the polls, completing on the attempt that reads it settled.
    await lateApplicantScenario(stack, fast, 'resource-settled-by-poll', {
      polls: 2,
      cap: '2 seconds',
      webhookLost: true,
    });

    // A standalone IDV with a resubmission, then approval.
    const idvPerson = (await control(stack, '/persons', {})).person_id as string;
    const idv = await stack.client.workflow.start(identityVerificationWorkflow, {
      workflowId: `idv/record/${idvPerson}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ personId: idvPerson, deadline: '30 seconds' }],
    });
    for (const [n, verdict] of [
      [1, 'ResubmissionRequested'],
      [2, 'Approved'],
    ] as const) {
      const s = await waitForStatus(
        idv,
        stepStatusQuery,
        (st) => st.state === 'waiting' && (st.detail as IdentityVerificationDetail | undefined)?.requests.length === n,
      );
      await control(stack, `/identity-verifications/${s.providerIds.request_id}/complete`, {
        verification_status: verdict,
      });
    }
    const idvOutcome = await idv.result();
    console.log(`idv-resubmission: ${idvOutcome.state}`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'idv-resubmission', [
      idv.workflowId,
      ...(idvOutcome.detail as IdentityVerificationDetail).requests.map((r) => `resource/idv/${r}`),
    ]);

    // A picklist resolved by the Update.
    const credit = await stack.client.workflow.start(creditReportWorkflow, {
      workflowId: `credit/record/${byName('Ambiguous Foods Ltd')}`,
      taskQueue: stack.temporal.taskQueue,
      args: [{ request: { company_id: byName('Ambiguous Foods Ltd') }, picklistDeadline: '30 seconds' }],
    });
    const picklist = (await waitForStatus(credit, stepStatusQuery, (s) => s.state === 'waiting'))
      .detail as CreditReportDetail;
    await credit.executeUpdate(resolveCreditReportPicklistUpdate, {
      args: [{ provider_id: picklist.picklist![0]!.provider_id }],
    });
    console.log(`credit-picklist: ${(await credit.result()).state}`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'credit-picklist', [credit.workflowId]);

    // Unrouted deliveries: a resource workflow nobody subscribes to, through its bounded log.
    const unrouted = `resource/unrouted/Recorded.Unknown/${randomUUID()}`;
    for (const n of [1, 2, 2, 3]) {
      await stack.client.workflow.signalWithStart(resourceWorkflow, {
        workflowId: unrouted,
        taskQueue: stack.temporal.taskQueue,
        args: [
          { resource: { kind: 'unrouted', id: unrouted.slice('resource/unrouted/'.length) }, retention: '2 seconds' },
        ],
        signal: deliverSignal,
        signalArgs: [
          {
            dedupeId: `b${n}|Recorded.Unknown|h`,
            eventType: 'Recorded.Unknown',
            batchId: `b${n}`,
            webhookId: 'w',
            datetimeSent: new Date().toISOString(),
            receivedAt: new Date().toISOString(),
            parse: 'unknown-event-type',
            data: { ids: {}, fields: [] },
          },
        ],
      });
    }
    console.log(`unrouted: ${(await stack.client.workflow.getHandle(unrouted).result()).events.length} events`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'unrouted', [unrouted]);

    // A resource that ends soon after its outcome reached its subscriber.
    // The subscriber is another mailbox, which just buffers what it is sent.
    const startSink = async (retention: Duration): Promise<string> => {
      const id = `Recorded.Sink/${randomUUID()}`;
      const delivery = {
        dedupeId: 's|Recorded.Sink|h',
        eventType: 'Recorded.Sink',
        batchId: 's',
        webhookId: 'w',
        datetimeSent: new Date().toISOString(),
        receivedAt: new Date().toISOString(),
        parse: 'unknown-event-type' as const,
        data: {},
      };
      const handle = await stack.client.workflow.signalWithStart(resourceWorkflow, {
        workflowId: `resource/unrouted/${id}`,
        taskQueue: stack.temporal.taskQueue,
        args: [{ resource: { kind: 'unrouted', id }, retention }],
        signal: deliverSignal,
        signalArgs: [delivery],
      });
      return handle.workflowId;
    };
    const sink = await startSink('5 seconds');
    const requestId = randomUUID();
    const settledResource = `resource/idv/${requestId}`;
    await stack.client.workflow.signalWithStart(resourceWorkflow, {
      workflowId: settledResource,
      taskQueue: stack.temporal.taskQueue,
      args: [{ resource: { kind: 'idv', id: requestId }, quietAfterOutcome: '1 second' }],
      signal: subscribeSignal,
      signalArgs: [{ workflowId: sink }],
    });
    const completed = {
      dedupeId: `b|IdentityVerification.Completed|${requestId}`,
      eventType: 'IdentityVerification.Completed',
      batchId: 'b',
      webhookId: 'w',
      datetimeSent: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      parse: 'known' as const,
      data: { request_id: requestId, verification_status: 'Approved' },
    };
    await stack.client.workflow.getHandle(settledResource).signal(deliverSignal, completed);
    console.log(
      `resource-closed-after-outcome: ${(await stack.client.workflow.getHandle(settledResource).result()).events.length} events`,
    );
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'resource-closed-after-outcome', [
      settledResource,
    ]);

    // A subscriber that comes after both deliveries of an occurrence is replayed one of them, the
    // subscriber again a mailbox that buffers what it is sent.
    const documentId = randomUUID();
    const documentResource = `resource/document/${documentId}`;
    const ofOccurrence = (eventType: string) => ({
      dedupeId: `d|${eventType}|h`,
      eventType,
      batchId: 'd',
      webhookId: 'w',
      datetimeSent: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      parse: 'known' as const,
      data: { status: 'Complete', document: { document_id: documentId } },
    });
    const documentHandle = await stack.client.workflow.signalWithStart(resourceWorkflow, {
      workflowId: documentResource,
      taskQueue: stack.temporal.taskQueue,
      args: [{ resource: { kind: 'document', id: documentId }, quietAfterOutcome: '1 second' }],
      signal: deliverSignal,
      signalArgs: [ofOccurrence('PayslipProcessing.Completed')],
    });
    await documentHandle.signal(deliverSignal, ofOccurrence('DocumentProcessing.Completed'));
    await waitForStatus(documentHandle, resourceStateQuery, (state) => state.events.length === 2);
    await documentHandle.signal(subscribeSignal, { workflowId: await startSink('30 seconds') });
    console.log(`resource-replayed-per-occurrence: ${(await documentHandle.result()).events.length} events`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'resource-replayed-per-occurrence', [
      documentResource,
    ]);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
