/**
 * How the simulator lays out the JSON it sends. Some bodies (a seeded fraction) are pretty-printed
 * with a trailing newline, and non-ASCII text (é, ø, ő) is always written as raw UTF-8, never as
 * `\u` escapes: a receiver that re-serialises a body before checking its signature, or a client
 * that assumes compact JSON, fails here as it would against the provider. Spec §6.3 rule 2: the
 * signature covers the exact body bytes.
 *
 * Decisions come from a generator of their own, so turning layouts on or off moves no id and no
 * fault decision, and the same seed and the same calls give the same layouts.
 */
import type { NextFunction, Request, Response } from 'express';
import { SeededRandom } from './seededRandom';

/** The share of bodies pretty-printed. */
const PRETTY_RATE = 0.3;

export class JsonLayout {
  private random: SeededRandom;

  constructor(seed: number) {
    this.random = new SeededRandom((seed ^ 0x1a_70_07) >>> 0);
  }

  /** One body: compact, or indented by two spaces and ending in a newline. */
  serialise(value: unknown): string {
    return this.random.next() < PRETTY_RATE ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
  }

  /** Lays out the API's JSON answers (`res.json`) with `serialise`. */
  middleware() {
    return (_req: Request, res: Response, next: NextFunction): void => {
      res.json = (body: unknown) => {
        if (!res.get('Content-Type')) res.type('application/json');
        return res.send(this.serialise(body));
      };
      next();
    };
  }
}
