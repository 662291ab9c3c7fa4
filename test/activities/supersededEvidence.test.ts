/**
 * What the sighting activity does with a later result for a step that completed with another
 * (activities/sightingActivities.ts, case-file/supersededEvidence.ts): a second IDV verdict for the
 * step's request, or a banking outcome for another connection or a rejected one, is one
 * `case.evidence_superseded` (however often it comes) and the case is in the operator's queue until
 * an operator acts; a result that agrees with what the journey used is nothing.
 */
import { randomUUID } from 'node:crypto';
import { createSightingActivities } from '../../activities/sightingActivities';
import type { ProviderClient } from '../../activities/providerClient';
import { caseEventListSchema } from '../../case-api/caseEventSchemas';
import { CaseEventLog } from '../../case-file/caseEventLog';
import type { JourneyStateWrite } from '../../case-file/caseReadModel';
import type { CaseFileStore } from '../../case-file/store';
import { testCaseFile } from '../setup/testEnvironment';

let store: CaseFileStore;
let sightings: ReturnType<typeof createSightingActivities>;
beforeAll(async () => {
  store = await testCaseFile();
  // Neither IDV nor banking deliveries are read through a link: the provider is never called.
  sightings = createSightingActivities({} as ProviderClient, store);
});
afterAll(async () => {
  await store?.close();
});

const superseded = async (caseId: string) =>
  (await new CaseEventLog(store.pool).list(caseId))
    .filter((e) => e.type === 'case.evidence_superseded')
    .map((e) => e.data);
/** The case's events as `GET /v1/cases/{caseId}/events` lists them, checked against its documented schema. */
const listedAsDocumented = async (caseId: string) => {
  const events = (await new CaseEventLog(store.pool).list(caseId)).map((e) => ({
    id: e.id,
    type: e.type,
    version: e.version,
    timestamp: e.occurredAt,
    data: e.data,
    deliveredAt: e.deliveredAt,
  }));
  return caseEventListSchema.safeParse({ caseId, events });
};
const queued = async (caseId: string) =>
  (await store.listCases({ state: 'needs_attention', limit: 500 })).cases.find((c) => c.caseId === caseId);

function completedCase(caseId: string, steps: JourneyStateWrite['steps']): JourneyStateWrite {
  const now = new Date().toISOString();
  return {
    caseId,
    workflowId: `case/${caseId}`,
    runId: 'run-1',
    runStartedAt: new Date(Date.now() - 60_000).toISOString(),
    version: 1,
    state: 'completed',
    runStatus: 'COMPLETED',
    steps,
    allSteps: true,
    reasons: [],
    operatorDeadline: null,
    stateSince: now,
  };
}

const idvResult = (requestId: string, verdict: string) => ({
  eventType: 'IdentityVerification.Completed',
  data: {
    identity_request: { request_id: requestId, identity_request_endpoint: 'x', identity_result_endpoint: 'y' },
    person: { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', person_id: 'p-1' },
    status: 'Completed',
    date_completed: new Date().toISOString(),
    verification_status: verdict,
  },
});

test('a second IDV verdict for the request the step used: one event, no personal data, queued until an operator acts', async () => {
  const caseId = randomUUID();
  const requestId = randomUUID();
  const step = 'identity-verification/p-1';
  await store.writeIdentityVerificationResult(
    { caseId, attemptId: `case/${caseId}/${step}/1` },
    {
      request_id: requestId,
      person_id: 'p-1',
      status: 'Completed',
      verification_status: 'Approved',
      identity_link: 'https://idv.example/l',
      date_created: new Date().toISOString(),
      date_completed: new Date().toISOString(),
      checks: [],
    },
  );
  await store.writeJourneyState(
    completedCase(caseId, { [step]: { state: 'completed', providerIds: { request_id: requestId } } }),
  );
  const resource = { kind: 'idv' as const, id: requestId };

  // The same verdict again changes nothing.
  await sightings.recordResourceSightings({ resource, deliveries: [idvResult(requestId, 'Approved')] });
  expect(await superseded(caseId)).toEqual([]);
  expect(await queued(caseId)).toBeUndefined();

  for (let i = 0; i < 2; i++)
    await sightings.recordResourceSightings({ resource, deliveries: [idvResult(requestId, 'Declined')] });
  const events = await superseded(caseId);
  expect(events).toEqual([
    {
      caseId,
      workflowId: `case/${caseId}`,
      runId: 'run-1',
      step,
      kind: 'identityVerification',
      providerId: requestId,
      used: { verificationStatus: 'Approved' },
      came: { verificationStatus: 'Declined' },
    },
  ]);
  expect(JSON.stringify(events)).not.toContain('Ada');
  expect((await listedAsDocumented(caseId)).error).toBeUndefined();
  expect((await queued(caseId))?.reasons).toEqual([
    `${step}: evidence superseded (verification Approved, then Declined)`,
  ]);

  // Another state's list does not gain the case; an operator's action takes it out of the queue.
  expect((await store.listCases({ state: 'completed', limit: 500 })).cases.map((c) => c.caseId)).toContain(caseId);
  await store.appendAudit({ caseId, actor: 'ops-1', action: 'assign', assignee: 'ops-1', outcome: 'accepted' });
  expect(await queued(caseId)).toBeUndefined();
});

test('a result for a request the step no longer uses (a retried attempt) is nothing', async () => {
  const caseId = randomUUID();
  const [old, current] = [randomUUID(), randomUUID()];
  const step = 'identity-verification/p-2';
  await store.writeIdentityVerificationResult(
    { caseId, attemptId: `case/${caseId}/${step}/1` },
    {
      request_id: old,
      person_id: 'p-2',
      status: 'Completed',
      verification_status: 'Declined',
      identity_link: 'https://idv.example/l',
      date_created: new Date().toISOString(),
      date_completed: new Date().toISOString(),
      checks: [],
    },
  );
  await store.writeJourneyState(
    completedCase(caseId, { [step]: { state: 'completed', providerIds: { request_id: current } } }),
  );
  await sightings.recordResourceSightings({
    resource: { kind: 'idv', id: old },
    deliveries: [idvResult(old, 'Approved')],
  });
  expect(await superseded(caseId)).toEqual([]);
});

test('a banking outcome for another connection, or a rejected one, after the banking step completed: one event each', async () => {
  const caseId = randomUUID();
  const [used, other] = [randomUUID(), randomUUID()];
  await store.writeJourneyState(
    completedCase(caseId, { banking: { state: 'completed', providerIds: { bank_connection_id: used } } }),
  );
  const outcome = (eventType: string, connection: string | null, status: string) => ({
    eventType,
    data: { bank_connection_id: connection, status, entity_type: 'Case', entity_id: caseId, connected_accounts: [] },
  });
  const resource = { kind: 'case-banking' as const, id: caseId };
  // The used connection's own outcome, again or as its child event: nothing.
  await sightings.recordResourceSightings({
    resource,
    deliveries: [
      outcome('OpenBankingProcessing.Completed', used, 'Connected'),
      outcome('BankingProcessing.Completed', used, 'Complete'),
    ],
  });
  expect(await superseded(caseId)).toEqual([]);

  await sightings.recordResourceSightings({
    resource,
    deliveries: [
      outcome('OpenBankingProcessing.Completed', other, 'Connected'),
      outcome('OpenBankingProcessing.Completed', used, 'Rejected'),
    ],
  });
  expect((await superseded(caseId)).map((d) => [d.step, d.kind, d.used, d.came])).toEqual([
    [
      'banking',
      'bankTransactions',
      { status: 'Connected', bankConnectionId: used },
      { status: 'Connected', bankConnectionId: other },
    ],
    [
      'banking',
      'bankTransactions',
      { status: 'Connected', bankConnectionId: used },
      { status: 'Rejected', bankConnectionId: used },
    ],
  ]);
  expect((await queued(caseId))?.reasons).toHaveLength(2);
  expect((await listedAsDocumented(caseId)).error).toBeUndefined();
});
