/** `npm run codec-server`: the codec server alone, configured from the environment. */
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { readCodecServerConfig } from './codecServerConfig';
import { readPayloadKeys } from './payloadKeys';
import { startCodecServer } from './startCodecServer';

async function main(): Promise<void> {
  const config = readCodecServerConfig();
  const keys = readPayloadKeys();
  const server = await startCodecServer(config, keys);
  // The token is not printed: it is CODEC_SERVER_TOKEN or the file .data/codec-server-token.
  console.log(
    JSON.stringify({
      msg: 'codec server listening',
      url: server.url,
      keyIds: keys.map((k) => k.id),
      allowedOrigins: config.allowedOrigins,
    }),
  );
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch(exitOnConfigurationError);
