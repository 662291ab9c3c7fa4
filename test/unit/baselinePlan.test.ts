/**
 * The throughput benchmark's baseline follows the shape of the journeys just measured
 * (bench/journeyThroughput/journeyShape.ts): read from their histories, a plan must ask Temporal
 * for what the real journey did, including what later changes added to it: the journey's local
 * activities (read-model writes and LOS events), the steps leaving their resources, and a resource
 * forwarding one delivery per occurrence while it keeps the other.
 */
import { temporal } from '@temporalio/proto';
import { journeysOf, planOf, shapeFigures, summarise } from '../../bench/journeyThroughput/journeyShape';

const T = temporal.api.enums.v1.EventType;
type Event = temporal.api.history.v1.IHistoryEvent;

/** A history event as the client hands it over, built from plain numbers (the proto types want Longs). */
const event = (eventType: temporal.api.enums.v1.EventType, fields: Record<string, unknown> = {}) =>
  ({ eventType, ...fields }) as unknown as Event;
const started = (parent?: string) =>
  event(T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, {
    workflowExecutionStartedEventAttributes: {
      workflowType: { name: 'w' },
      parentWorkflowExecution: parent ? { workflowId: parent } : undefined,
    },
  });
const marker = (markerName: string) =>
  event(T.EVENT_TYPE_MARKER_RECORDED, { markerRecordedEventAttributes: { markerName } });
const signalled = (from?: string) =>
  event(T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, {
    workflowExecutionSignaledEventAttributes: from ? { externalWorkflowExecution: { workflowId: from } } : {},
  });
const signals = (to: string) =>
  event(T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED, {
    signalExternalWorkflowExecutionInitiatedEventAttributes: { workflowExecution: { workflowId: to } },
  });
const activity = () => event(T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);

const journey = summarise('case/1', [
  started(),
  event(T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED, {
    startChildWorkflowExecutionInitiatedEventAttributes: {
      workflowId: 'case/1/banking',
      workflowTaskCompletedEventId: 4,
    },
  }),
  marker('core_patch'),
  marker('core_local_activity'),
  marker('core_local_activity'),
  event(T.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED),
  marker('core_local_activity'),
  marker('core_local_activity'),
  marker('core_local_activity'),
]);
const step = summarise('case/1/banking', [
  started('case/1'),
  activity(), // the provider call that creates the connection
  activity(), // the subscription (signalWithStart of the resource)
  event(T.EVENT_TYPE_TIMER_STARTED),
  signals('case/1'), // its report
  signalled('resource/banking/b-1'), // the forwarded event
  signals('resource/banking/b-1'), // leaving the resource as it ends
]);
const resource = summarise('resource/banking/b-1', [
  started(),
  signalled(), // the subscription, by signalWithStart
  signalled(), // the parent's delivery of the occurrence
  signalled(), // the child's delivery of the same occurrence: kept, not forwarded
  signals('case/1/banking'),
  signalled('case/1/banking'), // the step left
]);

test("a journey's plan asks for its local activities, its steps' leaving and each resource's forwards", () => {
  const [runs] = journeysOf([journey, step, resource], ['case/1']);
  expect(planOf(runs!)).toEqual({
    activities: 0,
    localActivities: 5,
    localActivitiesAtStart: 2,
    steps: [
      {
        workflowId: '{journey}/step-0',
        wave: 0,
        activitiesBefore: 1,
        activitiesAfter: 0,
        reports: 1,
        mailboxes: ['{journey}/mailbox-0'],
        leaves: ['{journey}/mailbox-0'],
        forwardsAwaited: 1,
      },
    ],
    mailboxes: [{ workflowId: '{journey}/mailbox-0', deliveries: 2, forwarded: 1 }],
  });
});

test('the shape compared line by line counts local activities (patch markers are not among them)', () => {
  const figures = shapeFigures(journeysOf([journey, step, resource], ['case/1']));
  expect(figures).toMatchObject({
    localActivities: 5,
    signalsBetweenWorkflows: 3,
    signalsFromClients: 3,
    activities: 2,
    timers: 1,
  });
});
