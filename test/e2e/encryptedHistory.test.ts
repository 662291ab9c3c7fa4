/**
 * A real journey through the stack with the codec: read without the codec, its histories hold
 * only ciphertext (no json/plain payload, none of the applicant's names, the company name or the
 * document's bytes, failure messages encoded too); read with the codec — a client, or the Temporal
 * CLI through the codec server — the same histories show the data.
 *
 * Workflow IDs and search attributes are not payloads and stay readable: they carry ids (case,
 * person, request), never names or provider data, so the person id is not among the checked strings.
 */
import type { Company } from '../../simulator/store';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { METADATA_ENCODING_KEY, type Payload } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { temporal } from '@temporalio/proto';
import { startStack, type Stack } from '../../cli/stack';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { waitForStatus } from '../../cli/watchStatus';
import { generateCodecServerToken } from '../../codec/codecServerConfig';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { formatPayloadKeys, generatePayloadKey } from '../../codec/payloadKeys';
import { creditReportWorkflow } from '../../workflows/creditReportWorkflow';
import type { OnboardCaseInput } from '../../client/journeyInput';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';
import { parseJourneyInput } from '../../client/journeyOperations';
import { storedDocument } from '../support/storedDocument';

type History = temporal.api.history.v1.IHistory;

const keys = [generatePayloadKey('e2e-encrypted-history')] as const;
const token = generateCodecServerToken();
let stack: Stack;
let plainConnection: Connection;
/** A client without the codec: what anyone with access to Temporal (or its database) sees. */
let plainClient: Client;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 55,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    payloadKeys: keys,
    codecServer: { port: 0, token, allowedOrigins: [], maxBodyBytes: 16 * 1024 * 1024 },
  });
  plainConnection = await Connection.connect({ address: stack.temporal.address });
  plainClient = new Client({ connection: plainConnection, namespace: stack.temporal.namespace });
});

afterAll(async () => {
  await plainConnection?.close();
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);
const b64 = (text: string) => Buffer.from(text).toString('base64');
const fast = { identityVerification: '30 seconds', documents: '30 seconds', picklist: '30 seconds' };
const company = async (name: string) =>
  ((await control('/companies')) as Company[]).find((c) => c.company_name === name)!.company_id as string;

interface FoundPayload {
  payload: Payload;
  /** Where it sits, e.g. `events.12.activityTaskScheduledEventAttributes.input.payloads.0`. */
  path: string;
}

/**
 * Every payload in a history but search attributes (the server must index them, so no codec
 * touches them), the SDK's own patch markers (core writes `{ id, deprecated }` there itself) and
 * the bookkeeping of a local activity's marker (core writes its sequence number, attempt, activity
 * id and type and times in `data`; the activity's result, in `result`, goes through the codec).
 */
function payloadsOf(node: unknown, path = '', found: FoundPayload[] = []): FoundPayload[] {
  if (!node || typeof node !== 'object' || node instanceof Uint8Array) return found;
  const record = node as Record<string, unknown>;
  if (record.metadata && typeof record.metadata === 'object' && METADATA_ENCODING_KEY in (record.metadata as object)) {
    found.push({ payload: record as Payload, path });
    return found;
  }
  const localActivityMarker = record.markerName === LOCAL_ACTIVITY_MARKER;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'searchAttributes' || key === 'patch-data') continue;
    if (localActivityMarker && key === 'details') {
      const { data, ...encoded } = value as Record<string, unknown>;
      expectBookkeepingOnly(data);
      payloadsOf(encoded, `${path}.${key}`, found);
      continue;
    }
    payloadsOf(value, `${path}.${key}`, found);
  }
  return found;
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/** A local activity marker's `data`: core's own fields, nothing of the case. */
function expectBookkeepingOnly(data: unknown): void {
  const payload = (data as { payloads?: Payload[] } | undefined)?.payloads?.[0];
  const fields = payload?.data ? Object.keys(JSON.parse(Buffer.from(payload.data).toString('utf8')) as object) : [];
  for (const field of fields)
    expect([
      'seq',
      'attempt',
      'activity_id',
      'activity_type',
      'complete_time',
      'backoff',
      'original_schedule_time',
    ]).toContain(field);
}

const encodingOf = (p: Payload) => Buffer.from(p.metadata![METADATA_ENCODING_KEY]!).toString('utf8');
const rawBytes = (history: History) =>
  Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');

async function plainHistories(workflowIds: string[]): Promise<Map<string, History>> {
  const histories = new Map<string, History>();
  for (const id of workflowIds) histories.set(id, await plainClient.workflow.getHandle(id).fetchHistory());
  return histories;
}

describe('encrypted histories', () => {
  const suffix = randomBytes(4).toString('hex');
  const firstName = `Wilhelmina${suffix}`;
  const lastName = `Quackenbush${suffix}`;
  const documentText = `PAYSLIP of ${firstName} ${lastName}, net pay 3141.59 ${randomUUID()}`;
  const fileName = `payslip-${suffix}.pdf`;
  let input: OnboardCaseInput;
  let workflowIds: string[];

  beforeAll(async () => {
    const personId = (await control('/persons', { first_name: firstName, last_name: lastName })).person_id as string;
    const caseId = (await control('/cases', {})).case_id as string;
    input = {
      caseId,
      company: { company_id: await company('Acme Widgets Ltd') },
      people: [{ personId }],
      steps: {
        creditReport: true,
        identityVerification: true,
        documents: [await storedDocument(stack.caseFile, caseId, fileName, documentText)],
      },
      deadlines: fast,
    } as OnboardCaseInput;
    const handle = await startOnboardCase(stack.client, {
      workflowId: `case/${caseId}`,
      taskQueue: stack.temporal.taskQueue,
      args: [input],
    });
    const idvKey = `identity-verification/${personId}`;
    const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps[idvKey]?.state === 'waiting');
    const requestId = waiting.steps[idvKey]!.providerIds.request_id!;
    await control(`/identity-verifications/${requestId}/complete`, { verification_status: 'Approved' });
    const outcome = await handle.result();
    expect(outcome.state).toBe('completed');
    const documents = (
      (outcome.steps.documents!.detail as { documents: { document_id: string }[] }).documents ?? []
    ).map((d) => `resource/document/${d.document_id}`);
    workflowIds = [
      handle.workflowId,
      ...Object.values(outcome.steps).map((s) => s.workflowId!),
      `resource/idv/${requestId}`,
      ...documents,
    ];
  });

  test('read without the codec, every payload of every workflow of the journey is binary/encrypted', async () => {
    const histories = await plainHistories(workflowIds);
    expect(workflowIds.length).toBeGreaterThanOrEqual(5);
    const found = [...histories].flatMap(([id, history]) =>
      payloadsOf(history).map((p) => ({ ...p, path: `${id}${p.path}` })),
    );
    expect(
      found
        .filter((p) => encodingOf(p.payload) !== 'binary/encrypted')
        .map((p) => `${p.path}: ${encodingOf(p.payload)}`),
    ).toEqual([]);
    expect(found.length).toBeGreaterThan(20);
  });

  test('the names and the company name are nowhere in the raw histories, but are in the decoded ones; the document is in neither', async () => {
    const histories = await plainHistories(workflowIds);
    const raw = [...histories.values()].map(rawBytes).join('\n');
    const decoded = await new EncryptionCodec(keys).decode(
      [...histories.values()].flatMap((h) => payloadsOf(h).map((p) => p.payload)),
    );
    const decodedText = decoded.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
    for (const secret of [firstName, lastName, 'Acme Widgets Ltd', fileName]) {
      expect({ secret, inRaw: raw.includes(secret) }).toEqual({ secret, inRaw: false });
      expect({ secret, inDecoded: decodedText.includes(secret) }).toEqual({ secret, inDecoded: true });
    }
    // The document's bytes stay in the case file: the journey names it by its id.
    for (const bytes of [documentText, b64(documentText)])
      expect({ inRaw: raw.includes(bytes), inDecoded: decodedText.includes(bytes) }).toEqual({
        inRaw: false,
        inDecoded: false,
      });
  });

  test('a client with the codec reads the journey input back', async () => {
    const history = await stack.client.workflow.getHandle(`case/${input.caseId}`).fetchHistory();
    const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
    expect(
      await decodeFromPayloadsAtIndex(stack.client.options.loadedDataConverter, 0, started.input!.payloads),
    ).toEqual(parseJourneyInput(input));
  });

  test('the Temporal CLI shows the history decoded through the codec server, and ciphertext without it', async () => {
    const cli = await resolveTemporalCli();
    const show = (...extra: string[]) =>
      promisify(execFile)(
        cli,
        [
          'workflow',
          'show',
          '--workflow-id',
          `case/${input.caseId}`,
          '--address',
          stack.temporal.address,
          '--namespace',
          stack.temporal.namespace,
          '--output',
          'json',
          ...extra,
        ],
        { maxBuffer: 32 * 1024 * 1024 },
      ).then((r) => r.stdout);
    const startedInput = (json: string) => {
      const payload = JSON.parse(json).events[0].workflowExecutionStartedEventAttributes.input.payloads[0];
      return {
        encoding: Buffer.from(payload.metadata.encoding, 'base64').toString(),
        data: Buffer.from(payload.data, 'base64').toString(),
      };
    };
    const withoutCodec = startedInput(await show());
    expect(withoutCodec.encoding).toBe('binary/encrypted');
    expect(withoutCodec.data).not.toContain(input.caseId);
    const withCodec = startedInput(
      await show('--codec-endpoint', stack.codecServer.url, '--codec-auth', `Bearer ${token}`),
    );
    expect(withCodec.encoding).toBe('json/plain');
    expect(JSON.parse(withCodec.data)).toEqual(parseJourneyInput(input));
  });

  test('the operator CLI decodes what it reads from Temporal with the keys (the input a retry starts from), and says which key it lacks without them', async () => {
    const journey = (payloadKeys: string) =>
      promisify(execFile)('npx', ['tsx', 'cli/journey.ts', 'retry', input.caseId, '--dry-run'], {
        cwd: path.resolve(__dirname, '../..'),
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: stack.temporal.address,
          TEMPORAL_NAMESPACE: stack.temporal.namespace,
          DATABASE_URL: stack.caseFileUrl,
          PAYLOAD_ENCRYPTION_KEYS: payloadKeys,
        },
      });
    expect((await journey(formatPayloadKeys(keys))).stdout).toContain('dry run: nothing started');
    const refused = await journey(formatPayloadKeys([generatePayloadKey('some-other-key')])).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain(
      'key id "e2e-encrypted-history", which is not among the configured keys (some-other-key)',
    );
    expect((refused as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });
});

test('failure messages and stack traces are encoded too', async () => {
  const handle = await stack.client.workflow.start(creditReportWorkflow, {
    workflowId: `credit/encrypted/${randomUUID()}`,
    taskQueue: stack.temporal.taskQueue,
    args: [{ request: { company_id: await company('Nonumber Trading Ltd') }, picklistDeadline: '30 seconds' }],
  });
  const outcome = await handle.result();
  expect(outcome).toMatchObject({ state: 'needs_attention', reason: expect.stringContaining('company_number') });
  const history = await plainClient.workflow.getHandle(handle.workflowId).fetchHistory();
  const failures = (history.events ?? []).flatMap((e) =>
    e.activityTaskFailedEventAttributes?.failure ? [e.activityTaskFailedEventAttributes.failure] : [],
  );
  expect(failures.length).toBeGreaterThan(0);
  for (const failure of failures) {
    expect(failure).toMatchObject({ message: 'Encoded failure', stackTrace: '' });
    expect(encodingOf(failure.encodedAttributes as Payload)).toBe('binary/encrypted');
  }
  expect(rawBytes(history)).not.toContain('company_number');
});
