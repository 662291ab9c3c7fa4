/**
 * The environment of a process that joins a running stack: the fault suite's, the soak's and the
 * idle benchmark's workers and bridges run as processes of their own, so that they can be killed,
 * restarted or measured apart from the stack that started the rest.
 */
import type { Stack } from './stack';

/** The stack's simulator, with the client it was seeded with. */
export function providerEnvOf(stack: Pick<Stack, 'simulator'>): Record<string, string> {
  return {
    PROVIDER_BASE_URL: stack.simulator.baseUrl,
    PROVIDER_AUTH_URL: stack.simulator.authUrl,
    PROVIDER_CLIENT_ID: 'demo-client',
    PROVIDER_CLIENT_SECRET: 'demo-secret',
  };
}

/** A worker on the stack's task queue, writing to the stack's case file, running `workflowBundle`. */
export function workerEnvOf(
  stack: Pick<Stack, 'simulator' | 'temporal' | 'caseFileUrl'>,
  workflowBundle: string,
): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: stack.temporal.address,
    TEMPORAL_TASK_QUEUE: stack.temporal.taskQueue,
    DATABASE_URL: stack.caseFileUrl,
    ...providerEnvOf(stack),
    WORKFLOW_BUNDLE: workflowBundle,
  };
}
