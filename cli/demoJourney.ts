/**
 * The demo journey `npm start` runs: an applicant's identity verification, in which the simulated
 * applicant completes the check and the provider approves it.
 */
import {
  identityVerificationStatusQuery,
  identityVerificationWorkflow,
  type IdentityVerificationStatus,
} from '../workflows/identityVerificationWorkflow';
import type { Stack } from './stack';
import { waitForStatus, watchStatus } from './watchStatus';

export interface DemoOutcome {
  workflowId: string;
  runId: string;
  status: IdentityVerificationStatus;
}

export async function runDemoJourney(stack: Stack, print: (line: string) => void): Promise<DemoOutcome> {
  const control = stack.simulator.controlUrl;
  const person = (await postJson(`${control}/persons`, { first_name: 'Ada', last_name: 'Lovelace' })) as { person_id: string; name: string };
  print(`applicant ${person.name} (person ${person.person_id}) registered with the provider`);

  const workflowId = `idv/demo-${Date.now().toString(36)}/${person.person_id}`;
  const handle = await stack.client.workflow.start(identityVerificationWorkflow, {
    workflowId,
    taskQueue: stack.temporal.taskQueue,
    args: [{ personId: person.person_id, deadline: '5 minutes' }],
  });
  print(`journey ${workflowId} started`);

  const watching = watchStatus(handle, {
    query: identityVerificationStatusQuery,
    onChange: (s) => print(describe(s)),
  });

  const ready = await waitForStatus(
    handle,
    identityVerificationStatusQuery,
    (s) => (s.state === 'waiting' && s.providerIds.request_id !== undefined) || !['pending', 'running', 'waiting'].includes(s.state),
    60_000,
  );
  if (ready.state === 'waiting') {
    print(`the applicant opens the verification link and completes the check …`);
    await postJson(`${control}/identity-verifications/${ready.providerIds.request_id}/complete`, { verification_status: 'Approved' });
  }

  const status = await watching;
  return { workflowId, runId: handle.firstExecutionRunId, status };
}

function describe(s: IdentityVerificationStatus): string {
  const parts = [`identity verification: ${s.state}`];
  if (s.providerIds.request_id) parts.push(`request ${s.providerIds.request_id}`);
  if (s.lastEvent) parts.push(`last event ${s.lastEvent.eventType}`);
  if (s.detail?.verificationStatus) parts.push(`verification_status ${s.detail.verificationStatus}`);
  if (s.reason) parts.push(`reason: ${s.reason}`);
  return parts.join(' · ');
}

async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}
