/**
 * The foundation slice end to end: simulator, bridge, worker and a real Temporal dev server, all
 * speaking real HTTP. Signatures in this file are computed with node:crypto directly, not with the
 * bridge's or the simulator's code.
 */
import { createHmac } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { routes } from '../../activities/routes';
import { startStack, type Stack } from '../../cli/stack';
import { identityVerificationResultSchema } from '../../provider';
import { waitForStatus } from '../../cli/watchStatus';
import { resourceStateQuery } from '../../client/resourceMessages';
import {
  identityVerificationStatusQuery,
  identityVerificationWorkflow,
  type IdentityVerificationStatus,
} from '../../workflows/identityVerificationWorkflow';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 7,
    spoolDir: testDirectory('spool'),
  });
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

async function startJourney(
  deadline: Duration = '1 minute',
): Promise<WorkflowHandle<typeof identityVerificationWorkflow>> {
  const person = await control('/persons', {});
  return stack.client.workflow.start(identityVerificationWorkflow, {
    workflowId: `idv/test-${Math.random().toString(36).slice(2)}/${person.person_id}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ personId: person.person_id, deadline, adoptOpenRequest: false }],
  });
}

const isWaiting = (s: IdentityVerificationStatus) => s.state === 'waiting' && s.providerIds.request_id !== undefined;

async function waitingJourney() {
  const handle = await startJourney();
  const status = await waitForStatus(handle, identityVerificationStatusQuery, isWaiting);
  return { handle, requestId: status.providerIds.request_id as string, personId: status.detail!.personId };
}

/** An IdentityVerification.Completed delivery in the shape of spec §6.6, built by the test. */
function completedDelivery(requestId: string, personId: string): string {
  return JSON.stringify({
    webhook_id: '6f1c2b1e-3d7a-4c2e-9a57-1b2c3d4e5f60',
    webhook_name: 'test',
    datetime_sent: new Date().toISOString(),
    external_ref: null,
    event_type: 'IdentityVerification.Completed',
    data: {
      identity_request: {
        request_id: requestId,
        identity_request_endpoint: `${stack.simulator.baseUrl}/v2/persons/${personId}/identity-verifications`,
        identity_result_endpoint: `${stack.simulator.baseUrl}/v2/identity/${requestId}`,
      },
      person: { first_name: 'Test', last_name: 'Person', name: 'Test Person', person_id: personId },
      status: 'Completed',
      date_completed: new Date().toISOString(),
      verification_status: 'Approved',
    },
  });
}

function postToBridge(body: string, signature: string): Promise<Response> {
  return fetch(stack.bridge.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hmac-sha256-signature': signature,
      'x-batch-correlation-id': 'batch-test',
    },
    body,
  });
}

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(body, 'utf8').digest('base64');

describe('identity verification, end to end', () => {
  test('a signed delivery completes the journey with the verification status of the result endpoint', async () => {
    const { handle, requestId } = await waitingJourney();

    const played = await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    expect(played.deliveries).toEqual([expect.objectContaining({ outcome: 'delivered', status: 202, signed: true })]);

    const outcome = await handle.result();
    const result = await stack.provider.call({
      route: routes.identityVerificationResult,
      params: { requestId },
      schema: identityVerificationResultSchema,
    });
    expect(result.verification_status).toBe('Approved');
    expect(outcome).toMatchObject({
      state: 'completed',
      providerIds: { request_id: requestId },
      detail: { verificationStatus: result.verification_status },
      lastEvent: { eventType: 'IdentityVerification.Completed' },
      reason: null,
    });
  });

  test('a declined check needs attention, with the reason', async () => {
    const { handle, requestId } = await waitingJourney();
    await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Declined' });
    expect(await handle.result()).toMatchObject({
      state: 'needs_attention',
      detail: { verificationStatus: 'Declined' },
      reason: expect.stringContaining('declined'),
    });
  });

  test('an expired link ends the journey as expired', async () => {
    const { handle, requestId } = await waitingJourney();
    await control(`/identity-verifications/${requestId}/expire`, {});
    expect(await handle.result()).toMatchObject({
      state: 'expired',
      detail: { verificationStatus: 'NotCompleted' },
      lastEvent: { eventType: 'IdentityVerification.Expired' },
    });
  });

  test('a delivery changed after signing is answered 401 and changes nothing', async () => {
    const { handle, requestId, personId } = await waitingJourney();
    // The provider's record says Approved, as it would when this delivery is genuine.
    Object.assign(stack.simulator.store.identityVerifications.get(requestId)!, {
      status: 'Completed',
      verification_status: 'Approved',
      date_completed: new Date().toISOString(),
    });
    const body = completedDelivery(requestId, personId);
    const signature = sign(body, stack.webhookSecret);
    const tampered = body.replace('"Approved"', '"Approvex"').replace('"test"', '"tesT"');

    const refused = await postToBridge(tampered, signature);
    expect(refused.status).toBe(401);

    const resource = stack.client.workflow.getHandle(`resource/idv/${requestId}`);
    expect((await resource.query(resourceStateQuery)).events).toHaveLength(0);
    expect(await handle.query(identityVerificationStatusQuery)).toMatchObject({ state: 'waiting', lastEvent: null });

    // The same bytes, untampered, are accepted and reach the journey: the refusal was the signature's doing.
    const accepted = await postToBridge(body, signature);
    expect(accepted.status).toBe(202);
    expect(await handle.result()).toMatchObject({ state: 'completed', detail: { verificationStatus: 'Approved' } });
    expect((await resource.query(resourceStateQuery)).events).toHaveLength(1);
  });

  test('with no delivery, the expiry timer ends the journey as expired', async () => {
    const handle = await startJourney('2 seconds');
    const outcome = await handle.result();
    expect(outcome).toMatchObject({
      state: 'expired',
      lastEvent: null,
      reason: expect.stringContaining('no outcome for request'),
    });
    expect(outcome.providerIds.request_id).toEqual(expect.any(String));
  });

  test('a 429 with Retry-After is retried by Temporal after that delay', async () => {
    await control('/faults', {
      method: 'POST',
      path: routes.createIdentityVerification.pattern,
      status: 429,
      retry_after: '2',
      times: 1,
    });
    const handle = await startJourney();
    const personId = (await waitForStatus(handle, identityVerificationStatusQuery, isWaiting)).detail!.personId;
    const creates = stack.simulator.store.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v2/persons/${personId}/identity-verifications`,
    );
    expect(creates.map((r) => r.status)).toEqual([429, 201]);
    // The retry policy's own first interval is 1 s; only Retry-After explains 2 s.
    expect(creates[1]!.at - creates[0]!.at).toBeGreaterThanOrEqual(1_950);
    await handle.terminate('test done');
  });

  test('the simulator refuses an API call without a valid token', async () => {
    const url = `${stack.simulator.baseUrl}/v2/identity/anything`;
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Basic abc' }] as Record<
      string,
      string
    >[]) {
      const response = await fetch(url, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'invalid_authorization', message: 'Invalid authorization' });
    }
  });
});
