/**
 * A restarted stack resumes coherent journeys: the simulator keeps its state in a file (as `npm
 * start` does in .data/), so a journey that waited on a picklist before the restart is resolved
 * and completes after it, against the same provider records.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack, type StackOptions } from '../../cli/stack';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, resolveJourneyPicklistUpdate } from '../../client/journeyMessages';
import { testCaseFileOption, testDirectory, testTemporalConfig, testWorkflowBundle } from '../setup/testEnvironment';
import { simulatorControl } from '../support/faultHarness/rawProviderApi';
import { startOnboardCase } from '../support/startOnboardCase';

const stateFile = path.join(testDirectory('simulator-state'), 'state.json');
const stacks: Stack[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
});

async function start(options: Partial<StackOptions>): Promise<Stack> {
  const stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
    simulatorStateFile: stateFile,
    ...options,
  });
  stacks.push(stack);
  return stack;
}

test('a journey waiting on a picklist before a restart completes after it', async () => {
  const first = await start({ simulatorSeed: 61 });
  const control = simulatorControl(first.simulator);
  const caseId = (await control('/cases', {})).case_id as string;
  const ambiguous = ((await control('/companies')) as { company_id: string; company_name: string }[]).find(
    (c) => c.company_name === 'Ambiguous Foods Ltd',
  )!;
  const handle = await startOnboardCase(first.client, {
    workflowId: `case/${caseId}`,
    taskQueue: first.temporal.taskQueue,
    args: [{ caseId, company: { company_id: ambiguous.company_id }, steps: { creditReport: true } }],
  });
  const waiting = await waitForStatus(handle, journeyStatusQuery, (s) => s.steps['credit-report']?.state === 'waiting');
  const reportId = waiting.steps['credit-report']!.providerIds.report_id!;
  const choice = (waiting.steps['credit-report']!.detail as { picklist: { provider_id: string }[] }).picklist[1]!
    .provider_id;

  await first.stop();
  stacks.pop();
  expect(existsSync(stateFile)).toBe(true);

  // A new simulator process (another seed, as after a restart), the same Temporal and task queue.
  const second = await start({ temporal: first.temporal, simulatorSeed: 62 });
  expect(second.simulator.store.creditReports.get(reportId)?.status).toBe('TooManyResults');
  const resolved = await second.client.workflow
    .getHandle(`case/${caseId}`)
    .executeUpdate(resolveJourneyPicklistUpdate, { args: [{ providerId: choice }] });
  expect(resolved.status).toMatchObject({ state: 'completed', detail: { report: { provider_id: choice } } });
  expect(await second.client.workflow.getHandle(`case/${caseId}`).result()).toMatchObject({ state: 'completed' });
  // The restored simulator did not hand out the ids of the first again.
  const caseAfter = (await simulatorControl(second.simulator)('/cases', {})).case_id as string;
  expect(caseAfter).not.toBe(caseId);
});
