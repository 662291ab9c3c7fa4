/** The simulator as the conformance suites start it: fresh, seeded, instant processing, loopback callbacks. */
import { startSimulator, type RunningSimulator } from '../../simulator/startSimulator';
import { rawApi } from './faultHarness/rawProviderApi';
import { startWebhookReceiver, type WebhookReceiver } from './webhookReceiver';

export const CONFORMANCE_SECRET = 'client-secret-1';

export interface ConformanceOptions {
  seed?: number;
  tokenLifetimeSeconds?: number;
  faults?: Record<string, unknown>;
  now?: () => number;
  /** The spec gives no idempotency: `ignored` unless a suite opts in. */
  idempotencyKeys?: 'ignored' | 'honoured';
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
    now: options.now,
    idempotencyKeys: options.idempotencyKeys,
  });
}

export interface ConformanceSetup {
  sim: RunningSimulator;
  receiver: WebhookReceiver;
  api: ReturnType<typeof rawApi>;
}

/**
 * A fresh simulator and webhook receiver around every test of a conformance suite (`defaults`:
 * the options every simulator of the suite starts with). `onChange` is
 * handed the current ones whenever the simulator starts; the returned `boot` starts another with
 * other options (stop the running one first). The last one started is stopped after each test.
 */
export function useConformanceSimulator(
  onChange: (current: ConformanceSetup) => void,
  defaults: ConformanceOptions = {},
): (options?: ConformanceOptions) => Promise<void> {
  let sim: RunningSimulator | undefined;
  let receiver: WebhookReceiver | undefined;
  const boot = async (options: ConformanceOptions = {}): Promise<void> => {
    sim = await startConformanceSimulator({ ...defaults, ...options });
    onChange({ sim, receiver: receiver!, api: rawApi(sim, CONFORMANCE_SECRET) });
  };
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    await boot();
  });
  afterEach(async () => {
    await sim?.stop();
    await receiver?.close();
  });
  return boot;
}
