/**
 * The demo journey `npm start` runs: a whole case (credit report, identity verification, open
 * banking, a payslip, income-and-employer and affordability). The simulated applicant acts when a
 * step waits for them: completes the identity check and connects their bank.
 */
import { cancelJourneySignal, journeyStatusQuery, onboardCase, type JourneyStatus } from '../workflows/onboardCaseWorkflow';
import type { OnboardCaseInput } from '../workflows/journeyInput';
import type { StepStatus } from '../workflows/stepStatus';
import { journeySummary } from '../workflows/workflowMetadata';
import type { Stack } from './stack';
import { watchStatus } from './watchStatus';

export interface DemoOutcome {
  caseId: string;
  workflowId: string;
  runId: string;
  status: JourneyStatus;
}

export interface DemoOptions {
  /** Deadlines for the journey (the defaults of workflows/deadlines.ts otherwise). */
  deadlines?: OnboardCaseInput['deadlines'];
}

export async function runDemoJourney(stack: Stack, print: (line: string) => void, options: DemoOptions = {}): Promise<DemoOutcome> {
  const control = stack.simulator.controlUrl;
  const person = (await postJson(`${control}/persons`, { first_name: 'Ada', last_name: 'Lovelace' })) as { person_id: string; name: string };
  const theCase = (await postJson(`${control}/cases`, { income_employer_outcome: 'Complete' })) as { case_id: string };
  const company = ((await (await fetch(`${control}/companies`)).json()) as { company_id: string; company_name: string }[])[0]!;
  print(`case ${theCase.case_id}: applicant ${person.name}, company ${company.company_name}`);
  // The payslip goes to the case file first; the journey names it by id (no bytes in histories).
  const payslip = await stack.caseFile.putDocument({ caseId: theCase.case_id, fileName: 'payslip-march.pdf', content: Buffer.from('PAYSLIP March') });

  const workflowId = `case/${theCase.case_id}`;
  const handle = await stack.client.workflow.start(onboardCase, {
    workflowId,
    taskQueue: stack.temporal.taskQueue,
    staticSummary: journeySummary(theCase.case_id),
    args: [
      {
        caseId: theCase.case_id,
        company: { company_id: company.company_id },
        people: [{ personId: person.person_id }],
        steps: {
          creditReport: true,
          identityVerification: true,
          banking: 'open_banking',
          documents: [{ document_id: payslip.document_id, file_name: payslip.file_name }],
          incomeEmployer: true,
          affordability: true,
        },
        ...(options.deadlines ? { deadlines: options.deadlines } : {}),
      },
    ],
  });
  print(`journey ${workflowId} started`);

  const seen = new Map<string, string>();
  const acted = new Set<string>();
  try {
    const status = await watchStatus(handle, {
      query: journeyStatusQuery,
      onChange: (s) => {
        for (const [key, step] of Object.entries(s.steps)) {
          const line = describe(step);
          if (seen.get(key) === line) continue;
          seen.set(key, line);
          print(`  ${key.padEnd(58)} ${line}`);
          void playApplicant(control, key, step, acted, print);
        }
      },
    });
    return { caseId: theCase.case_id, workflowId, runId: handle.firstExecutionRunId, status };
  } catch (error) {
    await handle.signal(cancelJourneySignal, { reason: 'demo stopped' }).catch(() => undefined);
    throw error;
  }
}

/** The simulated applicant: completes the identity check and connects the bank when asked. */
async function playApplicant(control: string, key: string, step: StepStatus, acted: Set<string>, print: (line: string) => void): Promise<void> {
  if (step.state !== 'waiting' || acted.has(key)) return;
  if (key.startsWith('identity-verification/') && step.providerIds.request_id) {
    acted.add(key);
    print('  (the applicant opens the verification link and completes the check)');
    await postJson(`${control}/identity-verifications/${step.providerIds.request_id}/complete`, { verification_status: 'Approved' });
  }
  if (key === 'banking' && step.providerIds.bank_connection_id) {
    acted.add(key);
    print('  (the applicant connects their bank)');
    await postJson(`${control}/open-banking-connections/${step.providerIds.bank_connection_id}/complete`, { status: 'Connected', accounts: 2 });
  }
}

function describe(s: StepStatus): string {
  const parts: string[] = [s.state];
  if (s.lastEvent) parts.push(`last event ${s.lastEvent.eventType}`);
  if (s.reason) parts.push(s.reason);
  return parts.join(' · ');
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
