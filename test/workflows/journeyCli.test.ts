/** The operator's commands against a real dev server: start, status, list, cancel, retry, replay. */
import type { CreditReportDetail } from '../../client/creditReportMessages';
import type { Company } from '../../simulator/store';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { formatRetryPlan, formatStatus } from '../../cli/journeyFormat';
import { readJourneyInput } from '../../cli/journeyInputFile';
import {
  cancelJourney,
  journeyStatus,
  listAllJourneys as listJourneys,
  resolvePicklist,
  startJourney,
  type JourneyReadContext as CommandContext,
} from '../../client/journeyOperations';
import { replayJourney } from '../../client/journeyReplay';
import { planJourneyRetry, retryJourney } from '../../client/journeyRetry';
import { journeyStatusQuery } from '../../client/journeyMessages';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';
import { eventually } from '../support/caseApiClient';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';

const run = promisify(execFile);
let stack: Stack;
let ctx: CommandContext;
const dir = testDirectory('journey-cli');

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 44,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
  ctx = { client: stack.client, taskQueue: stack.temporal.taskQueue, readModel: stack.caseFile };
  mkdirSync(dir, { recursive: true });
});

afterAll(async () => {
  await stack?.stop();
});

const control = (path: string, body?: unknown) => simulatorControl(stack.simulator)(path, body);

function inputFile(input: unknown): string {
  const file = path.join(dir, `${randomUUID()}.json`);
  writeFileSync(file, JSON.stringify(input));
  return file;
}

test('start from a file, watch status, resolve the picklist, list by state, replay', async () => {
  const caseId = (await control('/cases', {})).case_id;
  const ambiguous = ((await control('/companies')) as Company[]).find((c) => c.company_name === 'Ambiguous Foods Ltd')!;
  const { workflowId } = await startJourney(
    ctx,
    readJourneyInput(
      inputFile({ caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } }),
    ),
  );
  expect(workflowId).toBe(`case/${caseId}`);
  const waiting = await waitForStatus(
    stack.client.workflow.getHandle(workflowId),
    journeyStatusQuery,
    (s) => s.steps['credit-report']?.state === 'waiting',
  );
  const picklist = (waiting.steps['credit-report']!.detail as CreditReportDetail).picklist!;
  // The Web UI reads like a case list: a summary per journey and step, and what each is doing now.
  const journey = stack.client.workflow.getHandle(workflowId);
  expect(await (await journey.describe()).staticSummary()).toBe(`case ${caseId} · onboarding`);
  expect(await (await stack.client.workflow.getHandle(`${workflowId}/credit-report`).describe()).staticSummary()).toBe(
    `credit-report · attempt 1 · case ${caseId}`,
  );
  const metadata = await journey.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  expect(metadata.currentDetails).toMatch(/^needs_attention · 0 of 1 steps done · credit-report: waiting/);
  // `journey status` reads the read model, which the journey writes by activity a moment after the
  // state the query answered.
  const shown = formatStatus(
    await eventually(
      () => journeyStatus(ctx, caseId),
      (s) => s.steps['credit-report']?.state === 'waiting',
      20_000,
    ),
  );
  expect(shown).toMatch(/credit-report\s+waiting[\s\S]*resolve-picklist/);
  // Every candidate is on screen, so the operator can choose without another tool.
  for (const entry of picklist) expect(shown).toContain(entry.provider_id);

  await expect(resolvePicklist(ctx, caseId, 'CR-NOT-LISTED')).rejects.toMatchObject({
    cause: { message: expect.stringContaining(picklist[0]!.provider_id) },
  });
  const resolved = await resolvePicklist(ctx, caseId, picklist[0]!.provider_id);
  expect((resolved.status.detail as CreditReportDetail).report?.provider_id).toBe(picklist[0]!.provider_id);
  await stack.client.workflow.getHandle(workflowId).result();
  expect((await journeyStatus(ctx, caseId)).state).toBe('completed');
  await waitForList(caseId, 'completed');
  const replayed = await replayJourney(ctx, caseId, { workflowBundle: testWorkflowBundle() });
  expect(replayed.filter((r) => r.error)).toEqual([]);
  expect(replayed.map((r) => r.workflowId).sort()).toEqual([`case/${caseId}`, `case/${caseId}/credit-report`]);
});

test('cancel, then retry with the original input', async () => {
  const caseId = (await control('/cases', {})).case_id;
  const personId = (await control('/persons', {})).person_id;
  const input = { caseId, people: [{ personId }], steps: { identityVerification: true } };
  await startJourney(ctx, input);
  const handle = stack.client.workflow.getHandle(`case/${caseId}`);
  await waitForStatus(handle, journeyStatusQuery, (s) => Object.values(s.steps)[0]?.state === 'waiting');
  await expect(planJourneyRetry(ctx, caseId)).rejects.toThrow(/still running/);
  await cancelJourney(ctx, caseId, 'operator test');
  expect((await handle.result()).state).toBe('cancelled');

  const plan = await planJourneyRetry(ctx, caseId);
  expect(formatRetryPlan(plan)).toContain(`run again   identity-verification/${personId} (was cancelled; attempt 2)`);
  const runId = await retryJourney(ctx, plan);
  const retried = stack.client.workflow.getHandle(`case/${caseId}`, runId);
  const again = await waitForStatus(retried, journeyStatusQuery, (s) => Object.values(s.steps)[0]?.state === 'waiting');
  expect(Object.keys(again.steps)).toEqual([`identity-verification/${personId}`]);
  expect(Object.values(again.steps)[0]).toMatchObject({
    attempt: 2,
    workflowId: `case/${caseId}/identity-verification/${personId}/2`,
  });
  await cancelJourney(ctx, caseId);
});

test('a journey input file that is not valid is refused, naming the field', () => {
  expect(() => readJourneyInput(inputFile({ caseId: '', steps: {} }))).toThrow(/caseId/);
  expect(() => readJourneyInput(path.join(dir, 'missing.json'))).toThrow(/Cannot read/);
});

test('the command line prints usage for an unknown command and exits 2', async () => {
  const failure = await run('npx', ['tsx', 'cli/journey.ts', 'frobnicate'], {
    cwd: path.resolve(__dirname, '../..'),
  }).catch((e) => e);
  expect(failure.code).toBe(2);
  expect(failure.stderr).toContain("unknown command 'frobnicate'");
  expect(failure.stderr).toContain('resolve-picklist [options] <caseId> <id>');
});

async function waitForList(caseId: string, state: string): Promise<void> {
  // Visibility is eventually consistent: wait until the listing shows the journey.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((await listJourneys(ctx, state)).some((r: { caseId: string }) => r.caseId === caseId)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`case ${caseId} never listed as ${state}`);
}
