/**
 * The whole system on one machine: Temporal (embedded dev server or a configured cluster), the
 * case file (embedded PGlite served over the wire protocol, or a configured PostgreSQL),
 * simulator, bridge, worker and codec server, wired together; every client and worker encrypts
 * payloads with the same keys. `npm start` and the end-to-end tests use it.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { WorkflowBundleOption } from '@temporalio/worker';
import pino, { type Logger } from 'pino';
import { startCaseApi, type RunningCaseApi } from '../case-api/startCaseApi';
import { consoleRouter } from '../case-api/console/consoleRouter';
import type { CaseApiConfig } from '../case-api/config';
import type { CaseEventsConfig } from '../case-events/caseEventsConfig';
import { embeddedKeyEntries, type EmbeddedApiKeys } from '../case-api/embeddedApiKeys';
import { generateApiKey } from '../case-api/apiKeys';
import { ProviderClient } from '../activities/providerClient';
import { startEmbeddedCaseFile, type EmbeddedCaseFile } from '../case-file/embeddedServer';
import { withoutPassword } from '../case-file/config';
import { EMBEDDED_POOL_SIZE } from '../case-file/pool';
import { openCaseFile, type CaseFileStore } from '../case-file/store';
import { payloadKeyCipher, type FieldCipher } from '../case-file/fieldCipher';
import type { ProviderConfig } from '../activities/providerConfig';
import { webhookManagement } from '../activities/webhookManagement';
import { generateCodecServerToken, uiOrigins, type CodecServerConfig } from '../codec/codecServerConfig';
import { readPayloadKeys, type PayloadKeys } from '../codec/payloadKeys';
import { startCodecServer, type RunningCodecServer } from '../codec/startCodecServer';
import { knownEventTypes } from '../provider';
import { clockSeed } from '../simulator/seededRandom';
import { startSimulator, type RunningSimulator } from '../simulator/startSimulator';
import type { BridgeConfig } from '../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../webhook-bridge/startBridge';
import { startWorker, type RunningWorker } from '../worker/createWorker';
import { connectTemporalClient } from '../client/temporalClient';
import type { TemporalConfig } from '../config/temporalConfig';
import { startDevServer, type DevServer } from './devServer';
import { dataPath } from '../config/projectRoot';
import { resolveTemporalCli } from './temporalCli';

/** The application the local simulator issues tokens for, and the worker uses. */
const LOCAL_CLIENT = { id: 'demo-client', secret: 'demo-secret' };

export interface StackOptions {
  /** Connect here instead of starting the embedded dev server. */
  temporal?: TemporalConfig;
  embedded?: { port?: number; uiPort?: number; dbFile?: string; logFile?: string };
  taskQueue?: string;
  simulatorPort?: number;
  simulatorSeed?: number;
  /** Keep the simulator's state in this file across restarts (`npm start`); in memory when unset (tests). */
  simulatorStateFile?: string;
  tokenLifetimeSeconds?: number;
  /** How long the simulator takes to process documents and insights. */
  processingDelayMs?: number;
  /**
   * How long a provider request may take (10 s when unset). A creating call whose outcome is unknown
   * is not looked for until an earlier attempt's call can no longer answer (activities/purchaseGuard.ts),
   * so a shorter one brings that moment closer.
   */
  providerRequestTimeoutMs?: number;
  bridgePort?: number;
  /** The bridge's outage spool; `.data/spool` when unset. */
  spoolDir?: string;
  workflowBundle?: WorkflowBundleOption;
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
  /** The codec server; a free port and a random token when unset. The embedded Web UI's origins are always allowed. */
  codecServer?: CodecServerConfig;
  /**
   * The case file: a database to connect to, else an embedded PGlite (in memory unless `dataDir`; a
   * free port unless `port`).
   */
  caseFile?: { url: string; poolSize: number } | { embedded: { dataDir?: string; port?: number; password?: string } };
  /** Journey events to the LOS (the worker's `notifyLos`); unset: none are sent. */
  caseEvents?: CaseEventsConfig;
  /** The case API; unset: a free port and keys generated for this stack only (`Stack.caseApiKeys`). */
  caseApi?: CaseApiConfig;
  logger?: Logger;
  /** Progress lines for a person watching. */
  progress?: (line: string) => void;
  /** Receives the stack's `stop` before anything starts: a signal during the start stops what has started. */
  exposeStop?: (stop: Stack['stop']) => void;
}

export interface StopOptions {
  /**
   * Stop within this long: a part still stopping when it is over is left to the process's exit
   * (every part but the dev server runs in this process), and the dev server is killed then.
   */
  withinMs?: number;
}

/** Stops one part; `deadline` (epoch ms, Infinity when none) is when the whole stop must be over. */
type Cleanup = (deadline: number) => Promise<void>;

export interface Stack {
  temporal: TemporalConfig;
  devServer?: DevServer;
  simulator: RunningSimulator;
  bridge: RunningBridge;
  worker: RunningWorker;
  codecServer: RunningCodecServer;
  /** The stack's own store (the worker's activities write through it). */
  caseFile: CaseFileStore;
  /** Where other processes (the `journey` CLI) reach the case file. */
  caseFileUrl: string;
  embeddedCaseFile?: EmbeddedCaseFile;
  caseApi: RunningCaseApi;
  /** The case API's keys when the stack generated them (no `caseApi` option). */
  caseApiKeys?: EmbeddedApiKeys;
  payloadKeys: PayloadKeys;
  client: Client;
  provider: ProviderClient;
  webhookSecret: string;
  /** Stops every part, the last started first, each once. */
  stop(options?: StopOptions): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const progress = options.progress ?? (() => {});
  const logger = options.logger ?? pino({ level: 'silent' });
  const cleanups: Cleanup[] = [];
  const stop = async (stopOptions: StopOptions = {}) => {
    const { withinMs } = stopOptions;
    const deadline = withinMs === undefined ? Infinity : Date.now() + withinMs;
    for (const cleanup of cleanups.splice(0).reverse())
      await beforeDeadline(
        cleanup(deadline).catch(() => {}),
        deadline,
      );
  };
  options.exposeStop?.(stop);
  try {
    const payloadKeys = options.payloadKeys ?? readPayloadKeys();
    // Started before the dev server, whose Web UI is pointed at it (--ui-codec-endpoint).
    const codecServer = await startCodecServer(codecServerConfig(options), payloadKeys);
    cleanups.push(() => codecServer.stop());
    progress(
      `codec server at ${codecServer.url} (keys ${payloadKeys.map((k) => k.id).join(', ')}; ` +
        `the Web UI decodes through it)`,
    );

    // The case file and the dev server start side by side (PGlite takes a second or two).
    const [caseFileStarted, temporalStarted] = await settledTogether([
      startCaseFile(options.caseFile, payloadKeyCipher(payloadKeys), cleanups),
      startTemporal(options, codecServer.uiEndpoint, cleanups, progress),
    ]);
    const { store: caseFile, url: caseFileUrl, embedded: embeddedCaseFile } = caseFileStarted;
    progress(
      embeddedCaseFile
        ? `case file: embedded PGlite at ${withoutPassword(caseFileUrl)}`
        : 'case file: PostgreSQL at DATABASE_URL',
    );
    const { temporal, devServer } = temporalStarted;

    const simulator = await startSimulator({
      port: options.simulatorPort ?? 0,
      clientId: LOCAL_CLIENT.id,
      clientSecret: LOCAL_CLIENT.secret,
      seed: options.simulatorSeed ?? clockSeed(),
      tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
      allowInsecureLoopbackCallbacks: true,
      processingDelayMs: options.processingDelayMs ?? 300,
      stateFile: options.simulatorStateFile,
    });
    cleanups.push(() => simulator.stop());
    progress(`provider simulator at ${simulator.baseUrl} (control ${simulator.controlUrl})`);

    const providerConfig: ProviderConfig = {
      baseUrl: simulator.baseUrl,
      authUrl: simulator.authUrl,
      clientId: LOCAL_CLIENT.id,
      clientSecrets: [LOCAL_CLIENT.secret],
      requestTimeoutMs: options.providerRequestTimeoutMs ?? 10_000,
    };
    const provider = new ProviderClient(providerConfig);

    const bridgeConfig: BridgeConfig = {
      port: options.bridgePort ?? 0,
      path: '/webhooks',
      spoolDir: options.spoolDir ?? dataPath('spool'),
      maxBodyBytes: 1024 * 1024,
      secrets: [],
      secretSource: 'config',
      rotationGraceMs: 3_600_000,
      requireSignature: true,
      spoolLimit: 100_000,
      signalTimeoutMs: 3_000,
    };
    const bridge = await startBridge(bridgeConfig, temporal, { logger, payloadKeys });
    cleanups.push(() => bridge.stop());

    const webhookSecret = await registerWebhook(provider, simulator, bridge.url);
    bridge.secrets.set(webhookSecret);
    progress(`webhook bridge at ${bridge.url} (signed deliveries required)`);

    const worker = await startWorker({
      temporal,
      provider: providerConfig,
      caseFile,
      workflowBundle: options.workflowBundle,
      payloadKeys,
      caseEvents: options.caseEvents,
    });
    cleanups.push(() => worker.stop());
    progress(`worker polling task queue ${temporal.taskQueue}`);

    const { client, connection } = await connectTemporalClient(temporal, payloadKeys);
    cleanups.push(() => connection.close());

    const settings = caseApiSettings(options);
    const caseApiKeys = settings.keys;
    // The console links to the embedded Web UI unless told otherwise.
    const caseApiConfig = { ...settings.config, temporalUiUrl: settings.config.temporalUiUrl ?? devServer?.uiUrl };
    const namespace = temporal.namespace;
    const caseApi = await startCaseApi(caseApiConfig, {
      client,
      taskQueue: temporal.taskQueue,
      logger,
      caseFile,
      provider,
      routers: (gateway) => [consoleRouter(caseApiConfig, gateway, { namespace })],
    });
    cleanups.push(() => caseApi.stop());
    progress(`case API at ${caseApi.url} (reference ${caseApi.url}/docs, operator console ${caseApi.url}/console)`);

    return {
      temporal,
      devServer,
      simulator,
      bridge,
      worker,
      codecServer,
      caseFile,
      caseFileUrl,
      embeddedCaseFile,
      caseApi,
      caseApiKeys,
      payloadKeys,
      client,
      provider,
      webhookSecret,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `work`, or nothing once `deadline` has passed. */
async function beforeDeadline(work: Promise<unknown>, deadline: number): Promise<void> {
  if (deadline === Infinity) {
    await work;
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  await Promise.race([work, over]).finally(() => clearTimeout(timer));
}

/** Both results, once both have settled (so each has registered its cleanup), or the first error. */
async function settledTogether<A, B>(work: [Promise<A>, Promise<B>]): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled(work);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/** The configured Temporal, or the embedded dev server with its Web UI pointed at the codec server. */
async function startTemporal(
  options: StackOptions,
  codecEndpoint: string | undefined,
  cleanups: Cleanup[],
  progress: (line: string) => void,
): Promise<{ temporal: TemporalConfig; devServer?: DevServer }> {
  if (options.temporal) return { temporal: options.temporal };
  const cliPath = await resolveTemporalCli({ log: progress });
  const devServer = await startDevServer({
    cliPath,
    port: options.embedded?.port,
    uiPort: options.embedded?.uiPort,
    dbFile: options.embedded?.dbFile,
    codecEndpoint,
    logFile: options.embedded?.logFile ?? dataPath('temporal-dev-server.log'),
  });
  // With a deadline, SIGTERM and then SIGKILL at it (the server takes over a second to stop of itself).
  cleanups.push((deadline) => devServer.stop(deadline === Infinity ? undefined : Math.max(0, deadline - Date.now())));
  progress(`Temporal dev server at ${devServer.address}${devServer.uiUrl ? ` (Web UI ${devServer.uiUrl})` : ''}`);
  return {
    temporal: {
      address: devServer.address,
      namespace: devServer.namespace,
      taskQueue: options.taskQueue ?? 'verification-journeys',
    },
    devServer,
  };
}

/** Serves the embedded case file when no database is given, then opens (and migrates) the store. */
async function startCaseFile(
  option: StackOptions['caseFile'],
  cipher: FieldCipher,
  cleanups: Cleanup[],
): Promise<{ store: CaseFileStore; url: string; embedded?: EmbeddedCaseFile }> {
  if (option && 'url' in option) {
    const store = await openCaseFile(option.url, option.poolSize, cipher);
    cleanups.push(() => store.close());
    return { store, url: option.url };
  }
  const embedded = await startEmbeddedCaseFile(option?.embedded);
  cleanups.push(() => embedded.stop());
  const store = await openCaseFile(embedded.url, EMBEDDED_POOL_SIZE, cipher);
  cleanups.push(() => store.close());
  return { store, url: embedded.url, embedded };
}

function caseApiSettings(options: StackOptions): { config: CaseApiConfig; keys?: EmbeddedApiKeys } {
  if (options.caseApi) return { config: options.caseApi };
  const keys = { origination: generateApiKey('origination'), operator: generateApiKey('operator') };
  const config: CaseApiConfig = {
    port: 0,
    keys: embeddedKeyEntries(keys),
    maxBodyBytes: 64 * 1024,
    rateLimitPerMinute: 10_000,
    sessionSecret: randomBytes(32).toString('base64url'),
  };
  return { config, keys };
}

function codecServerConfig(options: StackOptions): CodecServerConfig {
  const config = options.codecServer ?? {
    port: 0,
    token: generateCodecServerToken(),
    allowedOrigins: [],
    maxBodyBytes: 16 * 1024 * 1024,
  };
  const ui = options.temporal ? [] : uiOrigins(options.embedded?.uiPort ?? 8233);
  // The dev server's command line carries the UI's endpoint: a token of this run's, never the kept one.
  const uiToken = config.uiToken ?? generateCodecServerToken();
  return { ...config, uiToken, allowedOrigins: [...new Set([...config.allowedOrigins, ...ui])] };
}

/** Subscribes the bridge to every known event type and returns the signing secret. */
const WEBHOOK_NAME = 'verification-journeys bridge';

/**
 * Points the provider's webhook at this bridge and answers the signing secret: created the first
 * time, updated (the bridge's port may have changed) and read when the simulator kept its state.
 */
export async function registerWebhook(
  provider: ProviderClient,
  simulator: RunningSimulator,
  callbackUrl: string,
): Promise<string> {
  // The simulator runs in local-development mode here, so the bridge's http:// loopback URL is admitted.
  const management = webhookManagement(provider, { localDevelopment: true });
  // The provider has no call that lists webhooks; the stack owns this simulator and looks.
  const existing = [...simulator.store.webhooks.values()].find((w) => w.webhook_name === WEBHOOK_NAME);
  if (existing) await management.updateWebhook(existing.webhook_id, { webhook_callback_url: callbackUrl });
  else
    await management.createWebhook({
      webhook_name: WEBHOOK_NAME,
      webhook_callback_url: callbackUrl,
      event_types: [...knownEventTypes],
      external_ref: 'local-stack',
    });
  const kept = await management.readSecret().catch((error: { type?: string }) => {
    if (error.type === 'HTTP_404') return undefined;
    throw error;
  });
  return (kept ?? (await management.createSecret())).secret;
}
