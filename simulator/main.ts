/** `npm run simulator`: the provider simulator alone; prints one JSON line when ready. */
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { readSimulatorConfig } from './config';
import { startSimulator } from './startSimulator';

async function main(): Promise<void> {
  const simulator = await startSimulator(readSimulatorConfig());
  console.log(
    JSON.stringify({
      base_url: simulator.baseUrl,
      auth_url: simulator.authUrl,
      client_id: simulator.clientId,
      control_url: simulator.controlUrl,
    }),
  );
  const stop = () => void simulator.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch(exitOnConfigurationError);
