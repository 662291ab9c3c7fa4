/** Assembles and starts the simulator: `{auth_url}` at `/oauth`, `{base_url}` at `/`, control at `/_control`. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ConfigurationError } from '../config/environment';
import type { SimulatorConfig } from './config';
import { CONTROL_PREFIX, createControlApi } from './controlApi';
import { createCreditReportApi } from './creditReportApi';
import { createIdentityVerificationApi } from './identityVerificationApi';
import { apiFaultRates, scriptedFaults } from './scriptedFaults';
import { idempotency } from './idempotency';
import { requestLog } from './requestLog';
import { createBankingApi } from './bankingApi';
import { createDocumentsApi, resumeDocumentProcessing } from './documentsApi';
import { FaultInjector } from './faultRates';
import { createInsightsApi, resumeInsights } from './insightsApi';
import { Jobs } from './jobs';
import { JsonLayout } from './jsonLayout';
import { leaseDraws, leaseFileOf } from './idLease';
import { restoreState, savesBeforeAnswering, StateSaver } from './savedState';
import { SeededRandom } from './seededRandom';
import { createStore, seedStore, type SimulatorStore } from './store';
import { CLIENT_SECRET_LIFETIME_MS, createTokenIssuer } from './tokenIssuer';
import { createWebhookApi } from './webhookApi';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhookDispatcher';

export interface RunningSimulator {
  baseUrl: string;
  authUrl: string;
  controlUrl: string;
  clientId: string;
  store: SimulatorStore;
  dispatcher: WebhookDispatcher;
  faults: FaultInjector;
  /** Resolves when processing, insights and deliveries in flight have all finished. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSimulator(config: SimulatorConfig): Promise<RunningSimulator> {
  const store = createStore(new SeededRandom(config.seed));
  const restored = config.stateFile ? restoreState(store, config.stateFile) : false;
  if (config.stateFile) leaseDraws(store.random, leaseFileOf(config.stateFile));
  if (!restored) seedStore(store);
  const saver = config.stateFile ? new StateSaver(store, config.stateFile) : undefined;
  const now = () => new Date();
  let baseUrl = '';
  const faults = new FaultInjector(config.seed, config.faults);
  const idempotencyKeys = { mode: config.idempotencyKeys ?? 'ignored' };
  const jobs = new Jobs(config.processingDelayMs ?? 500, () => saver?.changed());
  const layout = new JsonLayout(config.seed);
  const dispatcher = createWebhookDispatcher(store, { faults, layout });
  const application = {
    clientId: config.clientId,
    secrets: [{ value: config.clientSecret, expiresAt: Date.now() + CLIENT_SECRET_LIFETIME_MS }],
  };
  const tokens = createTokenIssuer(store, {
    application,
    baseUrl: () => baseUrl,
    tokenLifetimeSeconds: config.tokenLifetimeSeconds,
    now: config.now,
  });

  const app = express();
  app.disable('x-powered-by');
  if (saver) app.use(savesBeforeAnswering(saver));
  app.use('/oauth', tokens.router);
  app.use(
    CONTROL_PREFIX,
    createControlApi(store, {
      baseUrl: () => baseUrl,
      now,
      dispatcher,
      revokeAllTokens: tokens.revokeAll,
      clientSecrets: application.secrets,
      faults,
      jobs,
      idempotencyKeys,
    }),
  );
  app.use(requestLog(store));
  app.use(tokens.requireToken);
  app.use(layout.middleware());
  app.use(scriptedFaults(store));
  app.use(apiFaultRates(store, faults));
  // After the faults: a retry with a key can meet a 503 too, and a lost answer is still kept.
  app.use(idempotency(store.idempotencyRecords, idempotencyKeys, () => store.abandonedCalls++));
  app.use(createIdentityVerificationApi(store, now));
  app.use(createCreditReportApi(store));
  app.use(createDocumentsApi(store, { baseUrl: () => baseUrl, jobs, dispatcher }));
  app.use(createBankingApi(store));
  app.use(createInsightsApi(store, { baseUrl: () => baseUrl, now, jobs, dispatcher }));
  app.use(createWebhookApi(store, { allowInsecureLoopbackCallbacks: config.allowInsecureLoopbackCallbacks, now }));
  app.use((_req, res) => {
    res.status(404).json({ error: 'not_found', message: 'No such endpoint' });
  });
  app.use(
    (
      error: Error & { status?: number; type?: string },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
      res.status(status).json({ error: error.type ?? 'error', message: error.message });
    },
  );

  const server = await listen(app, config.port);
  const { port } = server.address() as AddressInfo;
  baseUrl = config.publicUrl?.replace(/\/+$/, '') ?? `http://127.0.0.1:${port}`;
  if (restored) {
    resumeDocumentProcessing(store, { baseUrl: () => baseUrl, jobs, dispatcher });
    resumeInsights(store, { baseUrl: () => baseUrl, now, jobs, dispatcher });
  }
  return {
    baseUrl,
    authUrl: `${baseUrl}/oauth`,
    controlUrl: `${baseUrl}${CONTROL_PREFIX}`,
    clientId: config.clientId,
    store,
    dispatcher,
    faults,
    async settled() {
      await jobs.settled();
      await dispatcher.idle();
    },
    async stop() {
      await jobs.settled();
      await dispatcher.idle();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await saver?.saved();
    },
  };
}

/**
 * Listens on 127.0.0.1:`port`. Not `app.listen`: express 5 hands a listen error to the ready
 * callback, which then found no address; here a busy port fails with a message naming it.
 */
async function listen(app: express.Express, port: number): Promise<Server> {
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ConfigurationError(
            `SIMULATOR_PORT: port ${port} on 127.0.0.1 is in use already; stop what holds it or choose another port`,
          ),
        );
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}
