/**
 * Starts the case API on 127.0.0.1 with a Temporal client of its own making; used by `npm run api`
 * and by the stack.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type express from 'express';
import type { ProviderClient } from '../activities/providerClient';
import type { CaseFileStore } from '../case-file/store';
import pino, { type Logger } from 'pino';
import { createCaseApiApp } from './app';
import { CaseGateway } from './caseGateway';
import type { CaseApiConfig } from './config';

export interface RunningCaseApi {
  url: string;
  gateway: CaseGateway;
  stop(): Promise<void>;
}

export interface CaseApiDependencies {
  client: Client;
  taskQueue: string;
  logger?: Logger;
  /** Routers mounted before the API's own routes (the operator console). */
  routers?: (gateway: CaseGateway) => express.Router[];
  host?: string;
  /** The case file, which every read of a case reads; without it those routes answer 503. */
  caseFile?: CaseFileStore;
  /** The provider, asked before a case starts whether it knows the ids the start names; unset: not asked. */
  provider?: ProviderClient;
}

export async function startCaseApi(config: CaseApiConfig, deps: CaseApiDependencies): Promise<RunningCaseApi> {
  const logger = deps.logger ?? pino({ level: 'silent' });
  const gateway = new CaseGateway(deps.client, deps.taskQueue, deps.caseFile, deps.provider);
  const app = createCaseApiApp(config, gateway, logger, deps.routers?.(gateway) ?? []);
  const server: Server = await new Promise((resolve, reject) => {
    // Express calls the callback on a listen error too (a taken port), with the error.
    const s = app.listen(config.port, deps.host ?? '127.0.0.1', (error) => (error ? reject(error) : resolve(s)));
    s.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    gateway,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
