/**
 * Looking costs no Temporal calls, for a whole minute: a console case tab, the
 * console queue and `journey watch` open for one minute on a journey that does not change make 0
 * queries, 0 describes, 0 visibility lists or counts and 0 Update polls by the dev server's
 * metrics, and one change costs each viewer one read of the read model. The console runs as
 * deployed, CONSOLE_LONG_POLL_SECONDS unset (25 s): each page renews its long poll twice in the
 * minute. Not a fault, but a minute's wait `npm test` does not afford; npm test's
 * test/api/lookingCostsNothing.test.ts runs the same suite for 12 s with a 4-s long poll.
 * The suite itself: test/support/lookingCosts.ts.
 */
import { lookingCostsNothingSuite } from '../support/lookingCosts';

lookingCostsNothingSuite({ windowMs: 60_000, consoleLongPollSeconds: undefined });
