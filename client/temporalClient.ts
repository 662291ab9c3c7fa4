/**
 * The one way a process builds a Temporal client: always with the project's data converter (the
 * encryption codec and the failure converter, codec/dataConverter.ts), so that nothing a process
 * sends reaches Temporal as plaintext, and with the retry policy of temporalRetry.ts. Workers,
 * the bridge, the case API, the CLI and the dead-letter replay all build theirs here;
 * test/unit/temporalClientFactory.test.ts fails when a process builds one any other way.
 */
import { Client, Connection } from '@temporalio/client';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys, type PayloadKeys } from '../codec/payloadKeys';
import { temporalConnectionOptions, type TemporalConfig } from '../config/temporalConfig';
import { temporalRetryInterceptors } from './temporalRetry';

export interface TemporalClient {
  client: Client;
  connection: Connection;
}

/** A client on an existing connection (a worker's, say), with the project's data converter. */
export function temporalClientOn(
  connection: Connection,
  namespace: string,
  payloadKeys: PayloadKeys = readPayloadKeys(),
): Client {
  return new Client({ connection, namespace, dataConverter: dataConverterFor(payloadKeys) });
}

/** Connects now (rejects when Temporal cannot be reached). */
export async function connectTemporalClient(
  temporal: TemporalConfig,
  payloadKeys: PayloadKeys = readPayloadKeys(),
): Promise<TemporalClient> {
  const connection = await Connection.connect({
    ...temporalConnectionOptions(temporal),
    interceptors: temporalRetryInterceptors(),
  });
  return { connection, client: temporalClientOn(connection, temporal.namespace, payloadKeys) };
}

/** Connects on first use (the bridge starts, and spools, while Temporal is down). */
export function lazyTemporalClient(
  temporal: TemporalConfig,
  payloadKeys: PayloadKeys = readPayloadKeys(),
): TemporalClient {
  const connection = Connection.lazy({
    ...temporalConnectionOptions(temporal),
    interceptors: temporalRetryInterceptors(),
  });
  return { connection, client: temporalClientOn(connection, temporal.namespace, payloadKeys) };
}
