/**
 * The whole system on one machine: Temporal (embedded dev server or a configured cluster),
 * simulator, bridge, worker and codec server, wired together; every client and worker encrypts
 * payloads with the same keys. `npm start` and the end-to-end tests use it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { WorkflowBundleOption } from '@temporalio/worker';
import pino, { type Logger } from 'pino';
import { startCaseApi, type RunningCaseApi } from '../case-api/startCaseApi';
import { consoleRouter } from '../case-api/console/consoleRouter';
import type { CaseApiConfig } from '../case-api/config';
import type { CaseEventsConfig } from '../case-api/notifications/caseEventsConfig';
import { embeddedKeyEntries, type EmbeddedApiKeys } from '../case-api/embeddedApiKeys';
import { generateApiKey } from '../case-api/apiKeys';
import { ProviderClient } from '../activities/providerClient';
import type { ProviderConfig } from '../activities/providerConfig';
import { webhookManagement } from '../activities/webhookManagement';
import { generateCodecServerToken, uiOrigins, type CodecServerConfig } from '../codec/codecServerConfig';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys, type PayloadKeys } from '../codec/payloadKeys';
import { startCodecServer, type RunningCodecServer } from '../codec/startCodecServer';
import { knownEventTypes } from '../provider';
import { clockSeed } from '../simulator/seededRandom';
import { startSimulator, type RunningSimulator } from '../simulator/startSimulator';
import type { BridgeConfig } from '../webhook-bridge/config';
import { startBridge, type RunningBridge } from '../webhook-bridge/startBridge';
import { startWorker, type RunningWorker } from '../worker/createWorker';
import { temporalConnectionOptions, type TemporalConfig } from '../worker/temporalConfig';
import { startDevServer, type DevServer } from './devServer';
import { projectRoot, resolveTemporalCli } from './temporalCli';

/** The application the local simulator issues tokens for, and the worker uses. */
const LOCAL_CLIENT = { id: 'demo-client', secret: 'demo-secret' };

export interface StackOptions {
  /** Connect here instead of starting the embedded dev server. */
  temporal?: TemporalConfig;
  embedded?: { port?: number; uiPort?: number; dbFile?: string; logFile?: string };
  taskQueue?: string;
  simulatorPort?: number;
  simulatorSeed?: number;
  tokenLifetimeSeconds?: number;
  /** How long the simulator takes to process documents and insights. */
  processingDelayMs?: number;
  bridgePort?: number;
  /** The bridge's outage spool; `.data/spool` when unset. */
  spoolDir?: string;
  workflowBundle?: WorkflowBundleOption;
  /** Payload encryption keys; `readPayloadKeys()` (environment or the embedded key file) when unset. */
  payloadKeys?: PayloadKeys;
  /** The codec server; a free port and a random token when unset. The embedded Web UI's origins are always allowed. */
  codecServer?: CodecServerConfig;
  /** Journey events to the LOS (the worker's `notifyLos`); unset: none are sent. */
  caseEvents?: CaseEventsConfig;
  /** The case API; unset: a free port and keys generated for this stack only (`Stack.caseApiKeys`). */
  caseApi?: CaseApiConfig;
  logger?: Logger;
  /** Progress lines for a person watching. */
  progress?: (line: string) => void;
}

export interface Stack {
  temporal: TemporalConfig;
  devServer?: DevServer;
  simulator: RunningSimulator;
  bridge: RunningBridge;
  worker: RunningWorker;
  codecServer: RunningCodecServer;
  caseApi: RunningCaseApi;
  /** The case API's keys when the stack generated them (no `caseApi` option). */
  caseApiKeys?: EmbeddedApiKeys;
  payloadKeys: PayloadKeys;
  client: Client;
  provider: ProviderClient;
  webhookSecret: string;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const progress = options.progress ?? (() => {});
  const logger = options.logger ?? pino({ level: 'silent' });
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    const payloadKeys = options.payloadKeys ?? readPayloadKeys();
    const dataConverter = dataConverterFor(payloadKeys);
    // Started before the dev server, whose Web UI is pointed at it (--ui-codec-endpoint).
    const codecServer = await startCodecServer(codecServerConfig(options), payloadKeys);
    cleanups.push(() => codecServer.stop());
    progress(`codec server at ${codecServer.url} (keys ${payloadKeys.map((k) => k.id).join(', ')}; the Web UI decodes through it)`);

    let temporal = options.temporal;
    let devServer: DevServer | undefined;
    if (!temporal) {
      const cliPath = await resolveTemporalCli({ log: progress });
      devServer = await startDevServer({
        cliPath,
        port: options.embedded?.port,
        uiPort: options.embedded?.uiPort,
        dbFile: options.embedded?.dbFile,
        codecEndpoint: codecServer.uiEndpoint,
        logFile: options.embedded?.logFile ?? path.join(projectRoot, '.data', 'temporal-dev-server.log'),
      });
      cleanups.push(() => devServer!.stop());
      temporal = { address: devServer.address, namespace: devServer.namespace, taskQueue: options.taskQueue ?? 'verification-journeys' };
      progress(`Temporal dev server at ${devServer.address}${devServer.uiUrl ? ` (Web UI ${devServer.uiUrl})` : ''}`);
    }

    const simulator = await startSimulator({
      port: options.simulatorPort ?? 0,
      clientId: LOCAL_CLIENT.id,
      clientSecret: LOCAL_CLIENT.secret,
      seed: options.simulatorSeed ?? clockSeed(),
      tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
      allowInsecureLoopbackCallbacks: true,
      processingDelayMs: options.processingDelayMs ?? 300,
    });
    cleanups.push(() => simulator.stop());
    progress(`provider simulator at ${simulator.baseUrl} (control ${simulator.controlUrl})`);

    const providerConfig: ProviderConfig = {
      baseUrl: simulator.baseUrl,
      authUrl: simulator.authUrl,
      clientId: LOCAL_CLIENT.id,
      clientSecrets: [LOCAL_CLIENT.secret],
      requestTimeoutMs: 10_000,
    };
    const provider = new ProviderClient(providerConfig);

    const bridgeConfig: BridgeConfig = {
      port: options.bridgePort ?? 0,
      path: '/webhooks',
      spoolDir: options.spoolDir ?? path.join(projectRoot, '.data', 'spool'),
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

    const webhookSecret = await registerWebhook(provider, bridge.url);
    bridge.secrets.set(webhookSecret);
    progress(`webhook bridge at ${bridge.url} (signed deliveries required)`);

    const worker = await startWorker({ temporal, provider: providerConfig, workflowBundle: options.workflowBundle, payloadKeys, caseEvents: options.caseEvents });
    cleanups.push(() => worker.stop());
    progress(`worker polling task queue ${temporal.taskQueue}`);

    const connection = await Connection.connect(temporalConnectionOptions(temporal));
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: temporal.namespace, dataConverter });

    const settings = caseApiSettings(options);
    const caseApiKeys = settings.keys;
    // The console links to the embedded Web UI unless told otherwise.
    const caseApiConfig = { ...settings.config, temporalUiUrl: settings.config.temporalUiUrl ?? devServer?.uiUrl };
    const namespace = temporal.namespace;
    const caseApi = await startCaseApi(caseApiConfig, { client, taskQueue: temporal.taskQueue, logger, routers: (gateway) => [consoleRouter(caseApiConfig, gateway, { namespace })] });
    cleanups.push(() => caseApi.stop());
    progress(`case API at ${caseApi.url} (reference ${caseApi.url}/docs, operator console ${caseApi.url}/console)`);

    return { temporal, devServer, simulator, bridge, worker, codecServer, caseApi, caseApiKeys, payloadKeys, client, provider, webhookSecret, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function caseApiSettings(options: StackOptions): { config: CaseApiConfig; keys?: EmbeddedApiKeys } {
  if (options.caseApi) return { config: options.caseApi };
  const keys = { origination: generateApiKey('origination'), operator: generateApiKey('operator') };
  const config: CaseApiConfig = { port: 0, keys: embeddedKeyEntries(keys), maxBodyBytes: 64 * 1024, rateLimitPerMinute: 10_000, sessionSecret: randomBytes(32).toString('base64url') };
  return { config, keys };
}

function codecServerConfig(options: StackOptions): CodecServerConfig {
  const config = options.codecServer ?? { port: 0, token: generateCodecServerToken(), allowedOrigins: [], maxBodyBytes: 16 * 1024 * 1024 };
  const ui = options.temporal ? [] : uiOrigins(options.embedded?.uiPort ?? 8233);
  return { ...config, allowedOrigins: [...new Set([...config.allowedOrigins, ...ui])] };
}

/** Subscribes the bridge to every known event type and returns the signing secret. */
async function registerWebhook(provider: ProviderClient, callbackUrl: string): Promise<string> {
  // The simulator runs in local-development mode here, so the bridge's http:// loopback URL is admitted.
  const management = webhookManagement(provider, { localDevelopment: true });
  await management.createWebhook({
    webhook_name: 'verification-journeys bridge',
    webhook_callback_url: callbackUrl,
    event_types: [...knownEventTypes],
    external_ref: 'local-stack',
  });
  const secret = await management.createSecret();
  return secret.secret;
}
