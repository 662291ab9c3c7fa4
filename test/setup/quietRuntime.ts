/** The SDK's own logs at WARN in tests (TEMPORAL_LOG_LEVEL=INFO to see them). */
import { installRuntimeLogging } from '../../worker/runtimeLogging';

installRuntimeLogging();
