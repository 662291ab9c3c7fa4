/**
 * The demo journey `npm start` runs: a whole case (credit report, identity verification, open
 * banking, a payslip, income-and-employer and affordability). The simulated applicant acts when a
 * step waits for them: completes the identity check and connects their bank.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { cancelJourneySignal, type JourneyStatus, type OnboardCaseWorkflow } from '../client/journeyMessages';
import { startJourney } from '../client/journeyOperations';
import type { OnboardCaseInput } from '../client/journeyInput';
import type { StepStatus } from '../client/stepMessages';
import type { Stack } from './stack';
import { describeOutage, dependencyOutages } from '../worker/dependencyOutageLog';
import { readCaseStatus } from '../client/caseReads';
import { watchReadModel } from './watchStatus';

export interface DemoOutcome {
  caseId: string;
  workflowId: string;
  runId: string;
  status: JourneyStatus;
}

/** A demo case at the provider and in the case file: who applies, for which company, with which payslip. */
export interface DemoOptions {
  /** Deadlines for the journey (the defaults of client/deadlines.ts otherwise). */
  deadlines?: OnboardCaseInput['deadlines'];
  /** How long the applicant takes to act once a step waits for them (bench:waiting); at once by default. */
  applicantActsAfterMs?: number;
}

export interface DemoCase {
  caseId: string;
  personId: string;
  personName: string;
  companyId: string;
  companyName: string;
  payslip: { document_id: string; file_name: string };
}

/** Creates the demo applicant and case at the simulator and puts their payslip in the case file. */
export async function prepareDemoCase(stack: Stack): Promise<DemoCase> {
  const control = stack.simulator.controlUrl;
  const person = (await postJson(`${control}/persons`, { first_name: 'Ada', last_name: 'Lovelace' })) as {
    person_id: string;
    name: string;
  };
  const theCase = (await postJson(`${control}/cases`, { income_employer_outcome: 'Complete' })) as { case_id: string };
  const company = (
    (await (await fetch(`${control}/companies`)).json()) as { company_id: string; company_name: string }[]
  )[0]!;
  // The payslip goes to the case file first; the journey names it by id (no bytes in histories).
  const payslip = await stack.caseFile.putDocument({
    caseId: theCase.case_id,
    fileName: 'payslip-march.pdf',
    content: Buffer.from('PAYSLIP March'),
  });
  return {
    caseId: theCase.case_id,
    personId: person.person_id,
    personName: person.name,
    companyId: company.company_id,
    companyName: company.company_name,
    payslip: { document_id: payslip.document_id, file_name: payslip.file_name },
  };
}

/** The demo journey's input: every step, for one person. */
export function demoJourneyInput(demo: DemoCase, options: DemoOptions = {}): OnboardCaseInput {
  return {
    deadlines: options.deadlines,
    caseId: demo.caseId,
    company: { company_id: demo.companyId },
    people: [{ personId: demo.personId, name: demo.personName }],
    steps: {
      creditReport: true,
      identityVerification: true,
      banking: 'open_banking',
      documents: [demo.payslip],
      incomeEmployer: true,
      affordability: true,
    },
  };
}

/** Starts the demo journey for a prepared case, as workflow `case/<caseId>`. */
export async function startDemoJourney(
  stack: Stack,
  demo: DemoCase,
  options: DemoOptions = {},
): Promise<WorkflowHandle<OnboardCaseWorkflow> & { runId: string }> {
  const started = await startJourney(
    { client: stack.client, taskQueue: stack.temporal.taskQueue, readModel: stack.caseFile },
    demoJourneyInput(demo, options),
  );
  if (!started.runId) throw new Error(`${started.workflowId} exists already`);
  // A handle got by id carries no run id of its own: the Web UI link printed at the end needs it.
  return Object.assign(stack.client.workflow.getHandle<OnboardCaseWorkflow>(started.workflowId, started.runId), {
    runId: started.runId,
  });
}

export async function runDemoJourney(
  stack: Stack,
  print: (line: string) => void,
  options: DemoOptions = {},
): Promise<DemoOutcome> {
  const control = stack.simulator.controlUrl;
  const demo = await prepareDemoCase(stack);
  print(`case ${demo.caseId}: applicant ${demo.personName}, company ${demo.companyName}`);
  const workflowId = `case/${demo.caseId}`;
  const handle = await startDemoJourney(stack, demo, options);
  print(`journey ${workflowId} started`);

  const seen = new Map<string, string>();
  const acted = new Set<string>();
  let latest: JourneyStatus | undefined;
  const quiet = sayWhatItWaitsFor(print, () => latest);
  try {
    // From the case file's read model, as `journey watch` follows a case: no query reaches the journey.
    const status = await watchReadModel(() => readCaseStatus(stack.caseFile, demo.caseId), handle.result(), {
      intervalMs: 250,
      final: (s) => s.runStatus !== 'RUNNING',
      mark: async () => (await stack.caseFile.caseMarks([demo.caseId])).get(demo.caseId),
      onChange: (s) => {
        latest = s;
        for (const [key, step] of Object.entries(s.steps)) {
          const line = describe(step);
          if (seen.get(key) === line) continue;
          seen.set(key, line);
          quiet.changed();
          print(`  ${key.padEnd(58)} ${line}`);
          void playApplicant(control, key, step, acted, print, options.applicantActsAfterMs ?? 0);
        }
      },
    });
    return { caseId: demo.caseId, workflowId, runId: handle.runId, status };
  } catch (error) {
    await handle.signal(cancelJourneySignal, { reason: 'demo stopped' }).catch(() => undefined);
    throw error;
  } finally {
    quiet.stop();
  }
}

/** After this long without a change, a line says what the journey waits for (and again as long again later). */
const QUIET_MS = 5_000;

/**
 * When nothing has changed for a while, says what the journey waits for: a dependency the worker
 * finds down (worker/dependencyOutageLog.ts), else the steps still open, else the journey's close.
 */
function sayWhatItWaitsFor(print: (line: string) => void, status: () => JourneyStatus | undefined) {
  let last = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - last < QUIET_MS) return;
    last = Date.now();
    const down = dependencyOutages();
    const open = Object.entries(status()?.steps ?? {}).filter(
      ([, step]) => !['completed', 'waived'].includes(step.state),
    );
    print(
      `waiting: ${
        down.length
          ? down.map(describeOutage).join('; ')
          : open.length
            ? open.map(([key, step]) => `${key} (${step.state})`).join(', ')
            : 'the journey to close (its last events)'
      }`,
    );
  }, 500);
  timer.unref();
  return { changed: () => (last = Date.now()), stop: () => clearInterval(timer) };
}

/** The simulated applicant: completes the identity check and connects the bank when asked. */
async function playApplicant(
  control: string,
  key: string,
  step: StepStatus,
  acted: Set<string>,
  print: (line: string) => void,
  delayMs: number,
): Promise<void> {
  if (step.state !== 'waiting' || acted.has(key)) return;
  const acts =
    (key.startsWith('identity-verification/') && step.providerIds.request_id) ||
    (key === 'banking' && step.providerIds.bank_connection_id);
  if (!acts) return;
  acted.add(key);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  if (key.startsWith('identity-verification/') && step.providerIds.request_id) {
    print('  (the applicant opens the verification link and completes the check)');
    await completeIdentityCheck(control, step.providerIds.request_id);
  }
  if (key === 'banking' && step.providerIds.bank_connection_id) {
    print('  (the applicant connects their bank)');
    await connectBank(control, step.providerIds.bank_connection_id);
  }
}

/** The demo applicant's answer to the identity check: approved. */
export async function completeIdentityCheck(control: string, requestId: string): Promise<void> {
  await postJson(`${control}/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
}

/** The demo applicant connects a bank with two accounts. */
export async function connectBank(control: string, connectionId: string): Promise<void> {
  await postJson(`${control}/open-banking-connections/${connectionId}/complete`, { status: 'Connected', accounts: 2 });
}

function describe(s: StepStatus): string {
  const parts: string[] = [s.state];
  if (s.lastEvent) parts.push(`last event ${s.lastEvent.eventType}`);
  if (s.reason) parts.push(s.reason);
  return parts.join(' · ');
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
