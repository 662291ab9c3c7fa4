/**
 * `npm run bridge:dead-letters -- list` shows the deliveries Temporal refused for good (no payload);
 * `npm run bridge:dead-letters -- replay <id>` signals one again once its cause is fixed, and
 * removes it when Temporal takes it. Reads BRIDGE_SPOOL_DIR and the TEMPORAL_* variables.
 */
import { z } from 'zod';
import { ConfigurationError } from '../config/environment';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { connectTemporalClient } from '../client/temporalClient';
import { readTemporalConfig } from '../config/temporalConfig';
import { readBridgeConfig } from './config';
import { DeadLetterStore } from './deadLetters';
import { listDeadLetters, replayDeadLetter } from './deadLetterReplay';
import { temporalSignaller } from './temporalSignaller';

const commandSchema = z.union([z.tuple([z.literal('list')]), z.tuple([z.literal('replay'), z.string().min(1)])]);

async function replay(store: DeadLetterStore, id: string): Promise<number> {
  const temporal = readTemporalConfig();
  const { client, connection } = await connectTemporalClient(temporal);
  try {
    const signal = temporalSignaller(client, temporal.taskQueue);
    const result = await replayDeadLetter(store, id, signal);
    console.log(JSON.stringify({ id, ...result }));
    return result.outcome === 'replayed' ? 0 : 1;
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  const command = commandSchema.safeParse(process.argv.slice(2));
  if (!command.success) throw new ConfigurationError('Usage: npm run bridge:dead-letters -- list | replay <id>');
  const store = new DeadLetterStore(readBridgeConfig().spoolDir);
  if (command.data[0] === 'list') {
    for (const letter of listDeadLetters(store)) console.log(JSON.stringify(letter));
    return;
  }
  process.exitCode = await replay(store, command.data[1]);
}

main().catch(exitOnConfigurationError);
