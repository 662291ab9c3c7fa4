/** `npm run api`: the case API alone, configured from the environment (README). */
import pino from 'pino';
import { ProviderClient } from '../activities/providerClient';
import { readProviderConfig } from '../activities/providerConfig';
import { connectTemporalClient } from '../client/temporalClient';
import { readPayloadKeys } from '../codec/payloadKeys';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { readTemporalConfig } from '../config/temporalConfig';
import { readCaseFileConfig } from '../case-file/config';
import { payloadKeyCipher } from '../case-file/fieldCipher';
import { openCaseFile } from '../case-file/store';
import { readCaseApiConfig } from './config';
import { consoleRouter } from './console/consoleRouter';
import { startCaseApi } from './startCaseApi';

async function main(): Promise<void> {
  const config = readCaseApiConfig();
  const temporal = readTemporalConfig();
  const payloadKeys = readPayloadKeys();
  const { client, connection } = await connectTemporalClient(temporal, payloadKeys);
  const logger = pino();
  const caseFileConfig = readCaseFileConfig();
  const caseFile = await openCaseFile(caseFileConfig.url, caseFileConfig.poolSize, payloadKeyCipher(payloadKeys));
  const api = await startCaseApi(config, {
    client,
    taskQueue: temporal.taskQueue,
    logger,
    caseFile,
    provider: new ProviderClient(readProviderConfig()),
    host: config.host,
    routers: (gateway) => [consoleRouter(config, gateway, { namespace: temporal.namespace })],
  });
  logger.info({ url: api.url, keyFile: config.keyFile ?? null }, 'case api listening');
  const stop = () =>
    void api
      .stop()
      .then(() => connection.close())
      .then(() => caseFile.close())
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch(exitOnConfigurationError);
