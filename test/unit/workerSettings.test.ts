/** The worker's production settings, validated and failing fast by name. */
import { ConfigurationError } from '../../config/environment';
import { readWorkerConfig } from '../../worker/workerConfig';

test('defaults: SDK-sized limits, a 250-workflow sticky cache in one V8 context, 30 s grace, no metrics exporter', () => {
  expect(readWorkerConfig({})).toEqual({
    tuning: {
      maxConcurrentActivityTaskExecutions: 100,
      maxConcurrentWorkflowTaskExecutions: 40,
      shutdownGraceTime: 30_000,
      maxCachedWorkflows: 250,
      reuseV8Context: true,
    },
    caseEventSlots: 100,
  });
});

test('values are read, durations in s, ms or m, and the exporter bound where asked', () => {
  const settings = readWorkerConfig({
    WORKER_MAX_CONCURRENT_ACTIVITIES: '7',
    WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '5',
    WORKER_SHUTDOWN_GRACE: '2m',
    WORKER_METRICS_PORT: '9464',
    WORKER_METRICS_HOST: '0.0.0.0',
    WORKER_MAX_CACHED_WORKFLOWS: '600',
    WORKER_REUSE_V8_CONTEXT: 'false',
    WORKER_MAX_CONCURRENT_CASE_EVENT_ACTIVITIES: '9',
  });
  expect(settings).toEqual({
    tuning: {
      maxConcurrentActivityTaskExecutions: 7,
      maxConcurrentWorkflowTaskExecutions: 5,
      shutdownGraceTime: 120_000,
      maxCachedWorkflows: 600,
      reuseV8Context: false,
    },
    metricsBindAddress: '0.0.0.0:9464',
    caseEventSlots: 9,
  });
  expect(readWorkerConfig({ WORKER_SHUTDOWN_GRACE: '500ms' }).tuning.shutdownGraceTime).toBe(500);
  expect(readWorkerConfig({ WORKER_SHUTDOWN_GRACE: '15' }).tuning.shutdownGraceTime).toBe(15_000);
  expect(readWorkerConfig({ WORKER_METRICS_PORT: '9464', WORKER_METRICS_HOST: '::' }).metricsBindAddress).toBe(
    '[::]:9464',
  );
});

test('a Worker Deployment Version is a deployment name and a build id; neither: an unversioned worker', () => {
  expect(
    readWorkerConfig({
      TEMPORAL_DEPLOYMENT_NAME: 'verification-journeys',
      TEMPORAL_WORKER_BUILD_ID: '2026-11-23.4f1c2e9',
    }).deploymentVersion,
  ).toEqual({ deploymentName: 'verification-journeys', buildId: '2026-11-23.4f1c2e9' });
  expect(readWorkerConfig({}).deploymentVersion).toBeUndefined();
});

test('RESOURCE_QUIET_AFTER_OUTCOME is read in hours, minutes or seconds; unset leaves the workflows their default', () => {
  expect(readWorkerConfig({ RESOURCE_QUIET_AFTER_OUTCOME: '2h' }).resourceQuietAfterOutcomeMs).toBe(7_200_000);
  expect(readWorkerConfig({ RESOURCE_QUIET_AFTER_OUTCOME: '10s' }).resourceQuietAfterOutcomeMs).toBe(10_000);
  expect(readWorkerConfig({}).resourceQuietAfterOutcomeMs).toBeUndefined();
});

test.each([
  ['WORKER_MAX_CONCURRENT_ACTIVITIES', { WORKER_MAX_CONCURRENT_ACTIVITIES: '0' }],
  ['WORKER_MAX_CONCURRENT_WORKFLOW_TASKS', { WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '1' }],
  ['WORKER_MAX_CONCURRENT_CASE_EVENT_ACTIVITIES', { WORKER_MAX_CONCURRENT_CASE_EVENT_ACTIVITIES: '0' }],
  ['WORKER_SHUTDOWN_GRACE', { WORKER_SHUTDOWN_GRACE: 'soon' }],
  ['WORKER_METRICS_PORT', { WORKER_METRICS_PORT: '70000' }],
  ['WORKER_METRICS_HOST', { WORKER_METRICS_HOST: 'a b' }],
  ['WORKER_MAX_CACHED_WORKFLOWS', { WORKER_MAX_CACHED_WORKFLOWS: '1' }],
  ['WORKER_REUSE_V8_CONTEXT', { WORKER_REUSE_V8_CONTEXT: 'maybe' }],
  ['RESOURCE_QUIET_AFTER_OUTCOME', { RESOURCE_QUIET_AFTER_OUTCOME: '1 day' }],
  ['TEMPORAL_DEPLOYMENT_NAME', { TEMPORAL_DEPLOYMENT_NAME: 'journeys.prod', TEMPORAL_WORKER_BUILD_ID: 'v1' }],
  ['TEMPORAL_WORKER_BUILD_ID', { TEMPORAL_DEPLOYMENT_NAME: 'journeys', TEMPORAL_WORKER_BUILD_ID: 'v 1' }],
  ['TEMPORAL_WORKER_BUILD_ID', { TEMPORAL_DEPLOYMENT_NAME: 'journeys' }],
  ['TEMPORAL_DEPLOYMENT_NAME', { TEMPORAL_WORKER_BUILD_ID: 'v1' }],
])('a bad %s fails fast, naming the variable', (variable, env) => {
  let error: unknown;
  try {
    readWorkerConfig(env);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigurationError);
  expect((error as Error).message).toContain(variable);
});
