/**
 * The SDK's own logs at ERROR in tests (TEMPORAL_LOG_LEVEL=WARN or INFO to see more): the worker
 * logs every failed activity attempt at WARN, and the tests provoke many on purpose (422s, lost
 * answers, 503 bursts), so a test run prints no stack traces for the failures it expects.
 */
import { installRuntimeLogging } from '../../worker/runtimeLogging';

installRuntimeLogging({ ...process.env, TEMPORAL_LOG_LEVEL: process.env.TEMPORAL_LOG_LEVEL ?? 'ERROR' });
