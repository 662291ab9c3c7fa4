/**
 * Unrouted deliveries, workflow side: an unrouted resource workflow is shared by every case, so what it
 * carries through continue-as-new must stay bounded however many deliveries arrive. The bridge
 * spreads a type's unrouted deliveries over 16 workflows an hour (webhook-bridge/routeDelivery.ts,
 * unroutedKey), so 4,000 into one workflow is what an hour of 64,000 deliveries of one unknown type
 * would bring: eight times the 500 events it keeps, over four or more runs of at most 1,000 history
 * events each. Once a run has continued as new with a full log, each further run carries the same
 * bounded state, so more deliveries would add time, not proof. They are signalled straight to one
 * resource workflow here (the bridge adds nothing but time; its own bounds, the spread and the
 * trimmed payload, are tested in test/unit/bridgeUnroutedShards.test.ts and
 * test/e2e/bridgeUnrouted.test.ts).
 *
 * In the fault suite, not in `npm test`: thousands of signals into one workflow. In two of
 * its first four runs, on a loaded machine, the worker's workflow thread died with Node's "async
 * hook stack has become corrupted", which ends the whole jest process. Its cause is not known; the
 * fault runs of CI since have not shown it.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { CaseFileStore } from '../../case-file/store';
import { dataConverterFor } from '../../codec/dataConverter';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { readProviderConfig } from '../../activities/providerConfig';
import { startWorker, type RunningWorker } from '../../worker/createWorker';
import {
  deliverSignal,
  resourceStateQuery,
  type ResourceDelivery,
  type ResourceWorkflowInput,
} from '../../client/resourceMessages';
import { resourceWorkflow } from '../../workflows/resourceWorkflow';
import { testCaseFile, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';

const DELIVERIES = 4_000;
/** The workflow's UNROUTED_LOG_LIMIT. */
const KEPT = 500;
const temporal = testTemporalConfig();
let worker: RunningWorker;
let connection: Connection;
let client: Client;
let caseFile: CaseFileStore;

beforeAll(async () => {
  caseFile = await testCaseFile();
  // Unrouted resources have no subscriber, so they never poll: the provider is never called.
  worker = await startWorker({
    temporal,
    provider: readProviderConfig({}),
    workflowBundle: testWorkflowBundle(),
    caseFile,
  });
  connection = await Connection.connect({ address: temporal.address });
  client = new Client({ connection, dataConverter: dataConverterFor(readPayloadKeys()) });
});

afterAll(async () => {
  await worker?.stop();
  await connection?.close();
  // The worker leaves the case file to whoever opened it.
  await caseFile?.close();
});

const delivery = (n: number): ResourceDelivery => ({
  dedupeId: `batch-${n}|Unrouted.Bound|${n}`,
  eventType: 'Unrouted.Bound',
  batchId: `batch-${n}`,
  webhookId: `hook-${n}`,
  datetimeSent: '2026-11-21T00:00:00Z',
  receivedAt: '2026-11-21T00:00:00Z',
  parse: 'unknown-event-type',
  data: { ids: { case_id: `case-${n}` }, fields: ['case_id'] },
});

/** Sends deliveries from..to with a few signals in flight at once. */
async function send(workflowId: string, from: number, to: number): Promise<void> {
  // A few in flight: thousands of signals buffered into one workflow task would make that task slow
  // on a loaded machine.
  const inFlight = 4;
  let next = from;
  const lane = async () => {
    for (let n = next++; n < to; n = next++) {
      await client.workflow.signalWithStart(resourceWorkflow, {
        workflowId,
        taskQueue: temporal.taskQueue,
        args: [
          {
            resource: { kind: 'unrouted', id: workflowId },
            continueAsNewAtHistoryLength: 1_000,
            retention: '1 minute',
          },
        ],
        signal: deliverSignal,
        signalArgs: [delivery(n)],
      });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

test(`${DELIVERIES} unrouted deliveries leave a bounded log and carried state`, async () => {
  // Shaped like the bridge's ids (type, hour, shard), with a shard of this run's own.
  const workflowId = `resource/unrouted/Unrouted.Bound/${new Date().toISOString().slice(0, 13)}/${randomUUID()}`;
  await send(workflowId, 0, DELIVERIES);
  // A duplicate of the latest delivery is still recognised: the kept events keep their dedupe ids.
  await send(workflowId, DELIVERIES - 1, DELIVERIES);
  const handle = client.workflow.getHandle(workflowId);
  const deadline = Date.now() + 60_000;
  let state = await handle.query(resourceStateQuery);
  // Queries see the state only after the worker has processed every signal.
  while (
    state.events.length + (state.eventsDropped ?? 0) + state.duplicatesIgnored < DELIVERIES + 1 &&
    Date.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = await handle.query(resourceStateQuery);
  }
  expect(state.events).toHaveLength(KEPT);
  expect(state.eventsDropped).toBe(DELIVERIES - KEPT);
  // The newest are the ones kept (four lanes interleave, so only membership is certain).
  expect(state.events.map((e) => e.batchId)).toContain(`batch-${DELIVERIES - 1}`);
  expect(state.events.map((e) => e.batchId)).not.toContain('batch-0');
  expect(state.duplicatesIgnored).toBeGreaterThanOrEqual(1);

  // The run continued as new (4,000 signals are far beyond 1,000 history events) and its input,
  // the carried state, holds at most the kept events.
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  expect(started?.continuedExecutionRunId).toBeTruthy();
  const inputBytes = (started?.input?.payloads ?? []).reduce((sum, p) => sum + (p.data?.length ?? 0), 0);
  const perEvent = Buffer.byteLength(JSON.stringify(delivery(DELIVERIES)));
  expect(inputBytes).toBeLessThan((KEPT + 10) * perEvent * 1.2);
  const [decoded] = await new EncryptionCodec(readPayloadKeys()).decode((started?.input?.payloads ?? []) as Payload[]);
  const input = JSON.parse(Buffer.from(decoded?.data ?? []).toString('utf8')) as ResourceWorkflowInput;
  expect(input.carried?.events.length).toBeLessThanOrEqual(KEPT);
  expect(input.carried?.eventsDropped).toBeGreaterThan(0);
  await handle.terminate('test done');
}, 300_000);
