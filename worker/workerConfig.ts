/**
 * The worker's production settings (docs/architecture.md, "Processes"), read once and validated: how much it runs at
 * once, how long running activities get to finish at shutdown, and where the SDK's Prometheus
 * metrics are served (only when a port is set).
 */
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { z } from 'zod';
import { booleanVariable, ConfigurationError, parseEnvironment, portVariable } from '../config/environment';

const positiveWhole = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be 1 or more');

/** `30` (seconds), `30s`, `500ms`, `2m`, `1h`: read as milliseconds. */
const durationVariable = z
  .string()
  .regex(/^\d+(ms|s|m|h)?$/, 'must be a duration such as 30s, 500ms, 2m or 1h (a bare number is seconds)')
  .transform((text) => {
    const [, amount, unit] = /^(\d+)(ms|s|m|h)?$/.exec(text) as RegExpExecArray;
    const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[unit ?? 's'] ?? 1_000;
    return Number(amount) * factor;
  });

export const workerEnvironment = {
  WORKER_MAX_CONCURRENT_ACTIVITIES: positiveWhole.default(100),
  // The case-events queue's own slots: LOS events and read-model writes (worker/createWorker.ts).
  WORKER_MAX_CONCURRENT_CASE_EVENT_ACTIVITIES: positiveWhole.default(100),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: positiveWhole
    .min(2, 'must be 2 or more (the SDK needs one sticky and one normal poll)')
    .default(40),
  // The default is the parsed value: 30 seconds.
  WORKER_SHUTDOWN_GRACE: durationVariable.default(30_000),
  // Measured (docs/benchmarks.md, idle journeys): 250 keeps a worker holding thousands of idle
  // journeys under 1 GiB with a 512 MB heap; the SDK's default follows the heap (about 2,300
  // workflows and 4 GB on a 4 GB heap).
  WORKER_MAX_CACHED_WORKFLOWS: positiveWhole.min(2, 'must be 2 or more (the sticky cache needs two)').default(250),
  WORKER_REUSE_V8_CONTEXT: booleanVariable.default(true),
  WORKER_METRICS_PORT: portVariable.optional(),
  // Unset: the workflows' default (client/deadlines.ts, `resourceQuietAfterOutcome`, an hour).
  RESOURCE_QUIET_AFTER_OUTCOME: durationVariable.optional(),
  WORKER_METRICS_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:-]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
  // The Worker Deployment Version (docs/deployment.md, Upgrading workers): both or neither.
  TEMPORAL_DEPLOYMENT_NAME: z
    .string()
    .max(255, 'must be 255 characters or fewer')
    .regex(/^[^\s.]+$/, 'must have no spaces and no dots (Temporal joins it to the build id with a dot)')
    .optional(),
  TEMPORAL_WORKER_BUILD_ID: z
    .string()
    .max(255, 'must be 255 characters or fewer')
    .regex(/^\S+$/, 'must have no spaces')
    .optional(),
};

/** Passed to Worker.create as they are. */
export interface WorkerTuning {
  maxConcurrentActivityTaskExecutions: number;
  maxConcurrentWorkflowTaskExecutions: number;
  /** Milliseconds. */
  shutdownGraceTime: number;
  /**
   * Workflows kept in the sticky cache; each costs about 1.1 MB with a 512 MB heap
   * (docs/benchmarks.md, idle journeys).
   */
  maxCachedWorkflows: number;
  /** One V8 context shared by every cached workflow (the SDK's default) instead of one each. */
  reuseV8Context: boolean;
}

export interface WorkerSettings {
  tuning: WorkerTuning;
  /**
   * How long a resource workflow stays once its outcome reached its subscribers (milliseconds),
   * sent with each subscription the worker's activities make; unset: the workflows' default.
   */
  resourceQuietAfterOutcomeMs?: number;
  /** `host:port` of the Prometheus exporter; unset: no exporter. */
  metricsBindAddress?: string;
  /** The Worker Deployment Version this worker runs (Worker Versioning); unset: unversioned. */
  deploymentVersion?: WorkerDeploymentVersion;
  /** LOS events and read-model writes at once, on the case-events queue's worker. */
  caseEventSlots: number;
}

/** Both variables or neither: a version is a deployment name and a build id. */
function deploymentVersionOf(
  deploymentName: string | undefined,
  buildId: string | undefined,
): WorkerDeploymentVersion | undefined {
  if (deploymentName === undefined && buildId === undefined) return undefined;
  if (deploymentName === undefined || buildId === undefined) {
    const missing = deploymentName === undefined ? 'TEMPORAL_DEPLOYMENT_NAME' : 'TEMPORAL_WORKER_BUILD_ID';
    const other = deploymentName === undefined ? 'TEMPORAL_WORKER_BUILD_ID' : 'TEMPORAL_DEPLOYMENT_NAME';
    throw new ConfigurationError(
      `Invalid configuration:\n  ${missing}: required when ${other} is set (a Worker Deployment Version is both)`,
    );
  }
  return { deploymentName, buildId };
}

export function readWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerSettings {
  const c = parseEnvironment(workerEnvironment, env);
  const deploymentVersion = deploymentVersionOf(c.TEMPORAL_DEPLOYMENT_NAME, c.TEMPORAL_WORKER_BUILD_ID);
  const host = c.WORKER_METRICS_HOST.includes(':') ? `[${c.WORKER_METRICS_HOST}]` : c.WORKER_METRICS_HOST;
  return {
    tuning: {
      maxConcurrentActivityTaskExecutions: c.WORKER_MAX_CONCURRENT_ACTIVITIES,
      maxConcurrentWorkflowTaskExecutions: c.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      shutdownGraceTime: c.WORKER_SHUTDOWN_GRACE,
      maxCachedWorkflows: c.WORKER_MAX_CACHED_WORKFLOWS,
      reuseV8Context: c.WORKER_REUSE_V8_CONTEXT,
    },
    metricsBindAddress: c.WORKER_METRICS_PORT !== undefined ? `${host}:${c.WORKER_METRICS_PORT}` : undefined,
    resourceQuietAfterOutcomeMs: c.RESOURCE_QUIET_AFTER_OUTCOME,
    deploymentVersion,
    caseEventSlots: c.WORKER_MAX_CONCURRENT_CASE_EVENT_ACTIVITIES,
  };
}
