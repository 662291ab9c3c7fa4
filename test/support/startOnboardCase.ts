/**
 * Tests start journeys the way every client does (client/journeyOperations.ts: the input parsed
 * with the one schema, the case id set as a search attribute at start), and get the handle back.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { journeyWorkflowId, type OnboardCaseWorkflow } from '../../client/journeyMessages';
import { startJourney } from '../../client/journeyOperations';

export async function startOnboardCase(
  client: Client,
  options: { taskQueue: string; args: [unknown]; workflowId?: string },
): Promise<WorkflowHandle<OnboardCaseWorkflow>> {
  const started = await startJourney({ client, taskQueue: options.taskQueue }, options.args[0]);
  if (options.workflowId !== undefined && options.workflowId !== started.workflowId)
    throw new Error(`a journey's workflow id is ${journeyWorkflowId(started.caseId)}, not ${options.workflowId}`);
  if (!started.created) throw new Error(`${started.workflowId} exists already`);
  return client.workflow.getHandle<OnboardCaseWorkflow>(started.workflowId, started.runId ?? undefined);
}
