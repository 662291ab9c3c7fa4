/**
 * The journey's and the steps' decisions on Temporal with every activity stubbed: the real workflow
 * bundle, a worker of the test's own with the activities the test gives (any other fails at once,
 * naming itself), and nothing else — no simulator, no bridge, no case file. Events a step waits for
 * are signalled to it the way its resource workflow would (`deliver`). The environment is
 * `@temporalio/testing`'s on the run's dev server: the time-skipping server is downloaded from
 * GitHub, which this project's machines cannot reach, so tests use deadlines of seconds.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { createActivities, type Activities } from '../../activities';
import type { CaseEventInput } from '../../case-events/caseEvent';
import { caseEventsTaskQueue } from '../../case-events/caseEventsTaskQueue';
import { failureConverterPath } from '../../codec/dataConverter';
import { providerOutageReporter } from '../../activities/providerOutageReport';
import { type OnboardCaseWorkflow } from '../../client/journeyMessages';
import { resourceEventSignal, type ResourceDelivery } from '../../client/resourceMessages';
import type { ResourceKey } from '../../provider';
import { startOnboardCase } from './startOnboardCase';
import { testWorkflowBundle } from '../setup/testEnvironment';

export type Stubs = Partial<Activities>;

export interface JourneyLogicOptions {
  /**
   * The worker tells a step whose provider call keeps failing that the provider is unavailable,
   * as the real worker does (activities/providerOutageReport.ts): the step shows it in `status`.
   */
  reportOutages?: boolean;
}

export interface JourneyLogic {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** The LOS events the journey sent, in order of their delivery. */
  events: CaseEventInput[];
  /** The LOS holds every event until `release` (an LOS that is slow or down). */
  holdLos(): void;
  releaseLos(): void;
  start(input: Record<string, unknown>): Promise<WorkflowHandle<OnboardCaseWorkflow>>;
  /** Signals `delivery` from `resource` to the step `workflowId`, as its resource workflow would. */
  deliver(workflowId: string, resource: ResourceKey, eventType: string, data: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** Every activity name, each failing for good until a test stubs it. */
function unstubbed(): Activities {
  const names = Object.keys(createActivities({ provider: {}, resources: {}, caseFile: {} } as never));
  const entries = names.map((name) => [
    name,
    () => {
      throw ApplicationFailure.nonRetryable(`${name} is not stubbed in this test`, 'NotStubbed');
    },
  ]);
  return Object.fromEntries(entries) as unknown as Activities;
}

export async function startJourneyLogic(stubs: Stubs = {}, options: JourneyLogicOptions = {}): Promise<JourneyLogic> {
  const address = process.env.TEST_TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEST_TEMPORAL_ADDRESS is unset: run the tests through jest');
  const env = await TestWorkflowEnvironment.createFromExistingServer({
    address,
    client: { dataConverter: { failureConverterPath } },
  });
  const taskQueue = `logic-${randomUUID()}`;
  const events: CaseEventInput[] = [];
  let losHeld: { answered: Promise<void>; release: () => void } | undefined;
  const activities: Activities = {
    ...unstubbed(),
    notifyLos: async (event: CaseEventInput) => {
      await losHeld?.answered;
      events.push(event);
      return { sent: true };
    },
    writeCaseState: async () => true,
    subscribeToResource: async () => undefined,
    recordResourceSightings: async () => undefined,
    ...stubs,
  } as Activities;
  const common = { connection: env.nativeConnection, dataConverter: { failureConverterPath } };
  const outageReports = options.reportOutages ? [providerOutageReporter(env.client)] : [];
  const worker = await Worker.create({
    ...common,
    taskQueue,
    workflowBundle: testWorkflowBundle(),
    activities,
    interceptors: { activity: outageReports },
  });
  const caseEventsWorker = await Worker.create({
    ...common,
    taskQueue: caseEventsTaskQueue(taskQueue),
    activities: { notifyLos: activities.notifyLos, writeCaseState: activities.writeCaseState },
  });
  const running = Promise.all([worker.run(), caseEventsWorker.run()]);
  let seq = 0;
  return {
    env,
    taskQueue,
    events,
    holdLos() {
      let release = () => {};
      const answered = new Promise<void>((resolve) => (release = resolve));
      losHeld ??= { answered, release };
    },
    releaseLos() {
      losHeld?.release();
      losHeld = undefined;
    },
    start: (input) => startOnboardCase(env.client, { taskQueue, args: [input] }),
    async deliver(workflowId, resource, eventType, data) {
      seq++;
      const now = new Date().toISOString();
      const delivery: ResourceDelivery = {
        dedupeId: `logic-${seq}`,
        eventType,
        batchId: null,
        webhookId: `logic-${seq}`,
        datetimeSent: now,
        receivedAt: now,
        parse: 'known',
        data,
      };
      await env.client.workflow.getHandle(workflowId).signal(resourceEventSignal, { resource, delivery });
    },
    async stop() {
      worker.shutdown();
      caseEventsWorker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** A stubbed IDV request as the provider answers its creation: Pending, with its link. */
export function pendingIdvRequest(personId: string, requestId: string) {
  return {
    request_id: requestId,
    person_id: personId,
    status: 'Pending' as const,
    verification_status: null,
    identity_link: `https://idv.example/${requestId}`,
    date_created: new Date().toISOString(),
    date_completed: null,
  };
}
