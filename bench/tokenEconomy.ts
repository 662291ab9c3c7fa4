/**
 * `npm run bench:tokens`: token requests over many provider calls made with concurrency in one
 * process, through the ProviderClient and AccessTokenSource the activities use, against the
 * simulator (in-process, as the tests start it) issuing short-lived tokens, so that several
 * lifetimes pass during the run. The simulator counts the token requests it received.
 *
 * Baseline: the fewest token requests the run could have made, ceil(run duration / effective
 * lifetime), where the effective lifetime is how long the client may use a token (it refreshes a
 * tenth of a short lifetime before expiry, see accessTokenSource.ts). Target: at most that + 1.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ProviderClient } from '../activities/providerClient';
import { routes } from '../activities/routes';
import { identityVerificationListSchema } from '../provider';
import { addPerson } from '../simulator/store';
import { startSimulator } from '../simulator/startSimulator';
import { reportResult, reportSize } from './benchResult';
import { closedLoop } from './closedLoop';
import { exitWhenDone } from './exitWhenDone';

const CALLS = Number(process.env.BENCH_PROVIDER_CALLS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 500);
const LIFETIME_SECONDS = Number(process.env.BENCH_TOKEN_LIFETIME_SECONDS ?? 2);
const CLIENT = { id: 'bench-client', secret: 'bench-secret' };
/** Mirrors accessTokenSource.ts: refresh 60 s before expiry, or a tenth of a shorter lifetime. */
const EFFECTIVE_LIFETIME_MS = LIFETIME_SECONDS * 1000 - Math.min(60_000, (LIFETIME_SECONDS * 1000) / 10);

async function main(): Promise<number> {
  reportSize(`${CALLS} provider calls, ${CONCURRENCY} at once (BENCH_PROVIDER_CALLS, BENCH_CONCURRENCY)`);
  const simulator = await startSimulator({
    port: 0,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    seed: 13,
    tokenLifetimeSeconds: LIFETIME_SECONDS,
    allowInsecureLoopbackCallbacks: true,
    processingDelayMs: 0,
  });
  try {
    const personId = addPerson(simulator.store).person_id;
    const provider = new ProviderClient({
      baseUrl: simulator.baseUrl,
      authUrl: simulator.authUrl,
      clientId: CLIENT.id,
      clientSecrets: [CLIENT.secret],
      requestTimeoutMs: 10_000,
    });
    const call = async () => {
      await provider.call({
        route: routes.listIdentityVerifications,
        params: { personId },
        schema: identityVerificationListSchema,
      });
    };
    console.log(
      `token economy: ${CALLS} provider calls (GET ${routes.listIdentityVerifications.pattern}), concurrency ${CONCURRENCY}, warm-up ${WARM_UP}`,
    );
    console.log(
      `token lifetime ${LIFETIME_SECONDS} s (effective ${EFFECTIVE_LIFETIME_MS} ms: the client refreshes before expiry); machine ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    await closedLoop(Array.from({ length: WARM_UP }), CONCURRENCY, call);

    const before = { ...simulator.store.stats };
    const started = performance.now();
    const figures = await closedLoop(Array.from({ length: CALLS }), CONCURRENCY, call);
    const durationMs = performance.now() - started;
    const tokenRequests = simulator.store.stats.tokenRequests - before.tokenRequests;
    const apiCalls = simulator.store.stats.apiCalls - before.apiCalls;

    const minimum = Math.ceil(durationMs / EFFECTIVE_LIFETIME_MS);
    const byFullLifetime = Math.ceil(durationMs / (LIFETIME_SECONDS * 1000));
    console.log(
      `${CALLS} calls in ${(durationMs / 1000).toFixed(1)} s (${figures.perSecond.toFixed(0)}/s, p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms); the simulator answered ${apiCalls} API calls`,
    );
    console.log(`token requests received by the simulator: ${tokenRequests}`);
    console.log(
      `fewest possible: ceil(${(durationMs / 1000).toFixed(1)} s / ${EFFECTIVE_LIFETIME_MS / 1000} s) = ${minimum} (by the full ${LIFETIME_SECONDS} s lifetime: ${byFullLifetime})`,
    );
    console.log(
      `token requests / fewest possible: ${(tokenRequests / minimum).toFixed(2)} (a token refused with 401 would show as an extra request)`,
    );
    const pass = tokenRequests <= minimum + 1 && apiCalls === CALLS;
    reportResult({
      name: 'token requests',
      figure: tokenRequests,
      unit: 'requests',
      baseline: minimum,
      baselineName: 'ceil(duration / effective lifetime)',
      ratio: tokenRequests / minimum,
      target: '≤ baseline + 1',
      pass,
    });
    return pass ? 0 : 1;
  } finally {
    await simulator.stop();
  }
}

exitWhenDone(main);
