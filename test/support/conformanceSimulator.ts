/** The simulator as the conformance suites start it: fresh, seeded, instant processing, loopback callbacks. */
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';

export const CONFORMANCE_SECRET = 'client-secret-1';

export interface ConformanceOptions {
  seed?: number;
  tokenLifetimeSeconds?: number;
  faults?: Record<string, unknown>;
}

export function startConformanceSimulator(options: ConformanceOptions = {}): Promise<RunningSimulator> {
  return startSimulator({
    port: 0,
    clientId: 'conformance',
    clientSecret: CONFORMANCE_SECRET,
    seed: options.seed ?? 5,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 0,
    faults: options.faults,
  });
}
