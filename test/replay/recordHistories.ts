/**
 * `npm run record-histories`: runs each scenario on an embedded stack and writes the history of
 * every workflow involved to test/replay/histories/, for the replay test to guard determinism.
 * Record a new generation after a change of workflow code that goes through `patched()`, with a
 * tag of its own (`npm run record-histories -- v3`); keep the old files, since running workflows
 * still have those histories.
 *
 * The stack encrypts payloads; the files keep them decoded (json/plain), so the fixtures replay
 * under any key. `journey replay` in the CLI test covers the replay of encrypted histories.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { encodeHistory } from './historyFiles';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { creditReportWorkflow, resolvePicklistUpdate } from '../../workflows/creditReportWorkflow';
import { identityVerificationWorkflow } from '../../workflows/identityVerificationWorkflow';
import { cancelJourneySignal, journeyStatusQuery, onboardCase } from '../../workflows/onboardCaseWorkflow';
import { stepStatusQuery } from '../../workflows/stepStatus';
import { installRuntimeLogging } from '../../worker/runtimeLogging';
import { simulatorControl } from '../support/rawProviderApi';

const out = path.join(__dirname, 'histories');
const tag = process.argv[2] ?? 'v1';
if (!/^[a-z0-9-]+$/.test(tag)) throw new Error(`the tag must be lower-case letters, digits and dashes, got ${tag}`);

const control = (stack: Stack, path: string, body?: unknown, method?: string) => simulatorControl(stack.simulator)(path, body, method);

async function save(client: Client, codec: PayloadCodec, scenario: string, workflowIds: string[]): Promise<void> {
  for (const workflowId of workflowIds) {
    const history = await client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch((error: { code?: number }) => {
        if (error.code === 5) return undefined; // a step that never started (affordability after failed banking)
        throw error;
      });
    if (!history) continue;
    await decodeInPlace(history, codec);
    const name = `${tag}-${scenario}__${workflowId.replace(/[^A-Za-z0-9-]+/g, '_').slice(0, 80)}.json`;
    writeFileSync(path.join(out, name), JSON.stringify({ workflowId, history: encodeHistory(history) }, null, 1));
    console.log(`  ${name}`);
  }
}

const isPayload = (value: unknown): value is Payload =>
  Boolean(value && typeof value === 'object' && (value as Payload).metadata && METADATA_ENCODING_KEY in ((value as Payload).metadata as object));

/** Replaces every payload in the history with its decoded form. */
async function decodeInPlace(node: unknown, codec: PayloadCodec): Promise<void> {
  if (!node || typeof node !== 'object' || node instanceof Uint8Array) return;
  for (const [key, value] of Object.entries(node)) {
    if (isPayload(value)) (node as Record<string, unknown>)[key] = (await codec.decode([value]))[0];
    else await decodeInPlace(value, codec);
  }
}

async function journeyScenario(stack: Stack, scenario: string, run: (caseId: string) => Promise<void>, input: (caseId: string) => Promise<Parameters<typeof onboardCase>[0]>): Promise<void> {
  const caseId = (await control(stack, '/cases', { income_employer_outcome: scenario.includes('attention') ? 'Failed' : 'Complete' })).case_id as string;
  const handle = await stack.client.workflow.start(onboardCase, { workflowId: `case/${caseId}`, taskQueue: stack.temporal.taskQueue, args: [await input(caseId)] });
  await run(caseId);
  const outcome = await handle.result();
  console.log(`${scenario}: ${outcome.state}`);
  const children = Object.values(outcome.steps).map((s) => s.workflowId);
  await save(stack.client, new EncryptionCodec(stack.payloadKeys), scenario, [handle.workflowId, ...children]);
}

async function main(): Promise<void> {
  installRuntimeLogging();
  mkdirSync(out, { recursive: true });
  const stack = await startStack({ embedded: { logFile: path.join(os.tmpdir(), 'record-histories-temporal.log') }, processingDelayMs: 20, simulatorSeed: 99, spoolDir: path.join(os.tmpdir(), `record-spool-${process.pid}`) });
  const fast = { identityVerification: '30 seconds', banking: '30 seconds', documents: '30 seconds', affordability: '30 seconds', incomeEmployer: '30 seconds', picklist: '30 seconds' };
  const companies = (await control(stack, '/companies')) as any[];
  const byName = (n: string) => companies.find((c) => c.company_name === n).company_id as string;
  try {
    const person = (await control(stack, '/persons', {})).person_id as string;
    await journeyScenario(
      stack,
      'journey-completed',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const waiting = await waitForStatus(h, journeyStatusQuery, (s) => s.steps[`identity-verification/${person}`]?.state === 'waiting' && s.steps.banking?.state === 'waiting');
        await control(stack, `/identity-verifications/${waiting.steps[`identity-verification/${person}`]!.providerIds.request_id}/complete`, { verification_status: 'Approved' });
        await control(stack, `/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, { status: 'Connected', accounts: 1 });
      },
      async (caseId) => ({
        caseId,
        company: { company_id: byName('Acme Widgets Ltd') },
        people: [{ personId: person }],
        steps: { creditReport: true, identityVerification: true, banking: 'open_banking', documents: [{ file_name: 'p.pdf', content_base64: Buffer.from('PAYSLIP').toString('base64') }], affordability: true, incomeEmployer: true },
        deadlines: fast,
      }),
    );

    await journeyScenario(
      stack,
      'journey-needs-attention',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        const waiting = await waitForStatus(h, journeyStatusQuery, (s) => s.steps.banking?.state === 'waiting');
        await control(stack, `/open-banking-connections/${waiting.steps.banking!.providerIds.bank_connection_id}/complete`, { status: 'Rejected' });
      },
      async (caseId) => ({ caseId, company: { company_id: byName('Nonumber Trading Ltd') }, steps: { creditReport: true, banking: 'open_banking', affordability: true, incomeEmployer: true }, deadlines: fast }),
    );

    await journeyScenario(
      stack,
      'journey-cancelled',
      async (caseId) => {
        const h = stack.client.workflow.getHandle(`case/${caseId}`);
        await waitForStatus(h, journeyStatusQuery, (s) => Object.values(s.steps).every((step) => step.state === 'waiting'));
        await h.signal(cancelJourneySignal, { reason: 'applicant withdrew' });
      },
      async (caseId) => ({ caseId, people: [{ personId: (await control(stack, '/persons', {})).person_id }], steps: { identityVerification: true }, deadlines: fast }),
    );

    // A standalone IDV with a resubmission, then approval.
    const idvPerson = (await control(stack, '/persons', {})).person_id as string;
    const idv = await stack.client.workflow.start(identityVerificationWorkflow, { workflowId: `idv/record/${idvPerson}`, taskQueue: stack.temporal.taskQueue, args: [{ personId: idvPerson, deadline: '30 seconds' }] });
    for (const [n, verdict] of [[1, 'ResubmissionRequested'], [2, 'Approved']] as const) {
      const s = await waitForStatus(idv, stepStatusQuery, (st) => st.state === 'waiting' && (st.detail as any)?.requests.length === n);
      await control(stack, `/identity-verifications/${s.providerIds.request_id}/complete`, { verification_status: verdict });
    }
    const idvOutcome = await idv.result();
    console.log(`idv-resubmission: ${idvOutcome.state}`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'idv-resubmission', [idv.workflowId, ...((idvOutcome.detail as any).requests as string[]).map((r) => `resource/idv/${r}`)]);

    // A picklist resolved by the Update.
    const credit = await stack.client.workflow.start(creditReportWorkflow, { workflowId: `credit/record/${byName('Ambiguous Foods Ltd')}`, taskQueue: stack.temporal.taskQueue, args: [{ request: { company_id: byName('Ambiguous Foods Ltd') }, picklistDeadline: '30 seconds' }] });
    const picklist = (await waitForStatus(credit, stepStatusQuery, (s) => s.state === 'waiting')).detail as any;
    await credit.executeUpdate(resolvePicklistUpdate, { args: [{ provider_id: picklist.picklist[0].provider_id }] });
    console.log(`credit-picklist: ${(await credit.result()).state}`);
    await save(stack.client, new EncryptionCodec(stack.payloadKeys), 'credit-picklist', [credit.workflowId]);
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
