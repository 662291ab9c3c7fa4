/**
 * The provider's weather while the model-based test runs: faults that hit every journey at once,
 * drawn from the run's seed. A background of lost answers on the credit report's creating calls
 * (their route is shared by every journey, so a journey cannot have them scripted for itself) and
 * a little latency, and every 6 to 18 s a window, the kinds in turn: the provider down (503 on
 * every API route), slow (seconds per answer, so operator actions land while creating calls are
 * in flight), the worker restarted under the journeys, or half the answers of every creating call
 * lost.
 */
import fc from 'fast-check';
import type { Control } from '../../support/faultHarness/faultJourneys';

const creatingRoutes = [
  'POST /v2/company-credit-reports',
  'POST /v2/company-credit-reports/picklist',
  'POST /v2/persons/:personId/identity-verifications',
  'POST /v2/cases/:caseId/open-banking-connections',
  'POST /v2/cases/:caseId/affordability-insights',
];

/** Always on: a quarter of the credit report's creating calls lose their answer; answers take up to 250 ms. */
export const backgroundRates = {
  api_latency_ms: [0, 250] as [number, number],
  response_lost_rate: 0.25,
  response_lost_routes: ['POST /v2/company-credit-reports', 'POST /v2/company-credit-reports/picklist'],
  retry_after_seconds: 1,
};

export type WeatherEvent =
  | { kind: 'outage'; ms: number }
  | { kind: 'slow'; ms: number; latency: [number, number] }
  | { kind: 'lostAnswers'; ms: number }
  | { kind: 'workerRestart' };

/** An event and the calm before it. */
export interface Spell {
  calmMs: number;
  event: WeatherEvent;
}

const kinds = ['outage', 'slow', 'workerRestart', 'lostAnswers'] as const;

/** The i-th spell: the kinds take turns (every run of a minute or more meets each), the seed draws the rest. */
const spellArbitrary = (i: number): fc.Arbitrary<Spell> =>
  fc.record({
    calmMs: fc.integer({ min: 6_000, max: 18_000 }),
    event: {
      outage: fc.record({ kind: fc.constant('outage' as const), ms: fc.integer({ min: 2_000, max: 6_000 }) }),
      slow: fc.record({
        kind: fc.constant('slow' as const),
        ms: fc.integer({ min: 4_000, max: 10_000 }),
        latency: fc.constantFrom<[number, number]>([500, 1_500], [1_000, 3_000]),
      }),
      lostAnswers: fc.record({
        kind: fc.constant('lostAnswers' as const),
        ms: fc.integer({ min: 4_000, max: 10_000 }),
      }),
      workerRestart: fc.constant<WeatherEvent>({ kind: 'workerRestart' }),
    }[kinds[i % kinds.length] as (typeof kinds)[number]] as fc.Arbitrary<WeatherEvent>,
  });

/** The weather of a run: spells in order, repeated if the run outlasts them. */
export function weatherFor(seed: number): Spell[] {
  return fc.sample(fc.tuple(...Array.from({ length: 40 }, (_, i) => spellArbitrary(i))), {
    seed: (seed ^ 0x5eed) >>> 0,
    numRuns: 1,
  })[0] as Spell[];
}

export interface Weather {
  /** Ends the current spell, puts the background back and resolves once the last event has finished. */
  stop(): Promise<void>;
  /** How many events of each kind happened. */
  counts: Record<WeatherEvent['kind'], number>;
}

/**
 * Runs the spells until stopped. Pauses are part of the scenario (how long the provider is down),
 * not waits for a condition, and each is cut short by `stop`.
 */
export function startWeather(spells: Spell[], control: Control, restartWorker: () => Promise<void>): Weather {
  const counts: Weather['counts'] = { outage: 0, slow: 0, lostAnswers: 0, workerRestart: 0 };
  let stopped = false;
  let wake: () => void = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const rates = (extra: Record<string, unknown> = {}) =>
    control('/fault-rates', { ...backgroundRates, ...extra }, 'PUT');

  const run = async () => {
    await rates();
    for (let i = 0; !stopped; i++) {
      const { calmMs, event } = spells[i % spells.length] as Spell;
      await pause(calmMs);
      if (stopped) break;
      counts[event.kind]++;
      switch (event.kind) {
        case 'outage':
          await rates({ api_5xx_rate: 1 });
          await pause(event.ms);
          break;
        case 'slow':
          await rates({ api_latency_ms: event.latency });
          await pause(event.ms);
          break;
        case 'lostAnswers':
          await rates({ response_lost_rate: 0.5, response_lost_routes: creatingRoutes });
          await pause(event.ms);
          break;
        case 'workerRestart':
          await restartWorker();
          break;
      }
      await rates();
    }
    await rates();
  };
  const running = run();
  return {
    counts,
    async stop() {
      stopped = true;
      wake();
      await running;
    },
  };
}
