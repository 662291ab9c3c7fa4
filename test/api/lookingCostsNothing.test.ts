/**
 * Looking costs no Temporal calls, at the size `npm test` affords: a case tab, the queue
 * and `journey watch` look at an unchanging journey for 12 s, not the fault suite's minute, with the
 * console's long poll held 4 s (CONSOLE_LONG_POLL_SECONDS; 25 by default), so each page still
 * renews it inside the window; the watch renews its 20-s long poll for the journey's close at most
 * once. test/faults/lookingCostsNothingForAMinute.test.ts looks for the full minute with the
 * default long poll. The suite itself: test/support/lookingCosts.ts.
 */
import { lookingCostsNothingSuite } from '../support/lookingCosts';

lookingCostsNothingSuite({ windowMs: 12_000, consoleLongPollSeconds: 4 });
