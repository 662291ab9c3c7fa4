/**
 * Fault rates, set at start (`SIMULATOR_FAULTS`, JSON) or through `PUT /_control/fault-rates`, and
 * drawn from their own seeded generator: the same seed and the same calls give the same faults, and
 * turning faults on does not change the ids the simulator hands out.
 */
import { z } from 'zod';
import { apiRoutes, matchesPattern, routeName } from './routeMatch';
import { SeededRandom } from './seededRandom';

const rate = z.number().min(0, 'a rate is between 0 and 1').max(1, 'a rate is between 0 and 1').default(0);

const knownRouteNames = apiRoutes.map(routeName);
/** A routes-table entry named `"METHOD /pattern"`; a typo would otherwise silently never fire. */
const routeNameSchema = z.string().refine((name) => knownRouteNames.includes(name), {
  error: (issue) => `unknown route ${JSON.stringify(issue.input)}; use one of: ${knownRouteNames.join(', ')}`,
});

export const faultRatesSchema = z
  .object({
    api_latency_ms: z.tuple([z.number().int().min(0), z.number().int().min(0)]).default([0, 0]),
    api_5xx_rate: rate,
    api_429_rate: rate,
    retry_after_seconds: z.number().int().min(0).default(1),
    delivery_drop_rate: rate,
    delivery_duplicate_rate: rate,
    delivery_delay_rate: rate,
    delivery_delay_ms: z.number().int().min(0).max(60_000).default(500),
    delivery_reorder_rate: rate,
    delivery_tamper_rate: rate,
    /** The call is processed (side effects happen), then the connection is cut before any byte of the answer. */
    response_lost_rate: rate,
    /** Routes the response-lost rate applies to, e.g. `"POST /v2/company-credit-reports"`; empty: every API route. */
    response_lost_routes: z.array(routeNameSchema).default([]),
    /**
     * A creating call that created something (its handler answered 2xx) has its connection cut
     * before any byte of the answer: the resource, its jobs and webhooks exist, the caller cannot
     * tell. Drawn only while above 0, so that leaving it off changes no seed's other faults.
     */
    creation_answer_lost_rate: rate,
  })
  .strict();
export type FaultRates = z.output<typeof faultRatesSchema>;

export type DeliveryFault = 'dropped' | 'duplicated' | 'delayed' | 'reordered' | 'tampered';
export type ApiFault =
  | { kind: 'status'; status: 503 | 429; retryAfter?: string }
  | { kind: 'latency'; ms: number }
  | { kind: 'response_lost' }
  | { kind: 'creation_answer_lost' };

/** The call an API fault is drawn for. */
export interface ApiCall {
  method: string;
  path: string;
}

export class FaultInjector {
  // Two streams: API calls come and go with timing (polls, token refreshes), and drawing delivery
  // faults from the same stream made the n-th delivery's faults depend on them. Apart, a seed gives
  // the same sequence of delivery faults in every run, whatever the API traffic in between.
  private readonly apiRandom: SeededRandom;
  private readonly deliveryRandom: SeededRandom;
  rates: FaultRates;

  constructor(seed: number, rates: Partial<FaultRates> = {}) {
    this.apiRandom = new SeededRandom((seed ^ 0x5eed_fa17) >>> 0);
    this.deliveryRandom = new SeededRandom((seed ^ 0xde11_7e57) >>> 0);
    this.rates = faultRatesSchema.parse(rates);
  }

  set(rates: Partial<FaultRates>): void {
    this.rates = faultRatesSchema.parse(rates);
  }

  private static hit(random: SeededRandom, rate: number): boolean {
    // Always draw, so one fault being on does not shift the decisions of the others.
    return random.next() < rate;
  }

  /**
   * Faults for one API call, in a fixed order of draws. The response-lost draw is made for every
   * call, whatever its route, so turning it on shifts no other decision; the creation-answer-lost
   * draw comes after it, and only while its rate is above 0. Whether the call creates something
   * is decided by its answer (scriptedFaults.ts), so the draw is made for every call too.
   */
  apiFaults(call: ApiCall): ApiFault[] {
    const [min, max] = this.rates.api_latency_ms;
    const latency = Math.round(min + this.apiRandom.next() * Math.max(0, max - min));
    const faults: ApiFault[] = latency > 0 ? [{ kind: 'latency', ms: latency }] : [];
    const hit = (rate: number) => FaultInjector.hit(this.apiRandom, rate);
    const fail5xx = hit(this.rates.api_5xx_rate);
    const fail429 = hit(this.rates.api_429_rate);
    const lose = hit(this.rates.response_lost_rate);
    if (fail5xx) faults.push({ kind: 'status', status: 503 });
    else if (fail429) faults.push({ kind: 'status', status: 429, retryAfter: String(this.rates.retry_after_seconds) });
    else if (lose && this.losesResponsesOf(call)) faults.push({ kind: 'response_lost' });
    if (this.rates.creation_answer_lost_rate > 0 && hit(this.rates.creation_answer_lost_rate))
      faults.push({ kind: 'creation_answer_lost' });
    return faults;
  }

  private losesResponsesOf(call: ApiCall): boolean {
    const only = this.rates.response_lost_routes;
    if (only.length === 0) return true;
    return only.some((name) => {
      const [method, pattern] = name.split(' ') as [string, string];
      return method === call.method && matchesPattern(pattern, call.path);
    });
  }

  /** Faults for one delivery, in a fixed order of draws. */
  deliveryFaults(): Set<DeliveryFault> {
    const r = this.rates;
    const hit = (rate: number) => FaultInjector.hit(this.deliveryRandom, rate);
    const draws: [DeliveryFault, boolean][] = [
      ['dropped', hit(r.delivery_drop_rate)],
      ['duplicated', hit(r.delivery_duplicate_rate)],
      ['delayed', hit(r.delivery_delay_rate)],
      ['reordered', hit(r.delivery_reorder_rate)],
      ['tampered', hit(r.delivery_tamper_rate)],
    ];
    const faults = new Set(draws.filter(([, on]) => on).map(([f]) => f));
    if (faults.has('dropped')) return new Set(['dropped']);
    return faults;
  }

  /** A body with one character changed after signing. */
  tamper(body: string): string {
    const at = Math.floor(body.length / 2);
    const replacement = body[at] === 'X' ? 'Y' : 'X';
    return `${body.slice(0, at)}${replacement}${body.slice(at + 1)}`;
  }
}
