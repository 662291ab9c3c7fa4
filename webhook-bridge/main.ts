/** `npm run bridge`: the webhook bridge alone, configured from the environment. */
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { readTemporalConfig } from '../config/temporalConfig';
import { readProviderConfig } from '../activities/providerConfig';
import { assertSecretSource, readBridgeConfig } from './config';
import { startBridge } from './startBridge';

async function main(): Promise<void> {
  const config = readBridgeConfig();
  assertSecretSource(config);
  const temporal = readTemporalConfig();
  const provider = config.secretSource === 'provider' ? readProviderConfig() : undefined;
  const bridge = await startBridge(config, temporal, { provider });
  console.log(JSON.stringify({ msg: 'bridge listening', url: bridge.url, spoolDepth: bridge.recorder.spoolDepth }));
  const stop = () => void bridge.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch(exitOnConfigurationError);
