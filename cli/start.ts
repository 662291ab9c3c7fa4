/**
 * `npm start`: the whole system on its embedded default (Temporal dev server with Web UI, case
 * file, codec server, simulator, bridge, worker), then a demo journey with visible progress and a
 * line on what the case file holds. Exits 0 when the journey
 * ends as expected; `npm start -- --keep` keeps the stack up until Ctrl-C.
 */
import net from 'node:net';
import { z } from 'zod';
import { parseEnvironment, portVariable, ConfigurationError } from '../config/environment';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { readTemporalConfig } from '../config/temporalConfig';
import { readBridgeConfig } from '../webhook-bridge/config';
import { readSimulatorConfig } from '../simulator/config';
import { readCodecServerConfig } from '../codec/codecServerConfig';
import { readPayloadKeys } from '../codec/payloadKeys';
import { readCaseFileConfig, type CaseFileConfig } from '../case-file/config';
import type { CaseFileCounts } from '../case-file/evidence';
import { readCaseApiConfig } from '../case-api/config';
import { readCaseEventsConfig } from '../case-events/caseEventsConfig';
import { runDemoJourney } from './demoJourney';
import { stopDevServers } from './devServer';
import { exitOnSignals } from './exitOnSignals';
import { startStack, type Stack } from './stack';
import { dataPath } from '../config/projectRoot';

const embeddedEnvironment = {
  TEMPORAL_DEV_PORT: portVariable.default(7233),
  TEMPORAL_UI_PORT: portVariable.default(8233),
  TEMPORAL_DB_FILE: z.string().min(1).default(dataPath('temporal.sqlite')),
};

const started = Date.now();
const print = (line: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

/** Ctrl-C or SIGTERM: the whole stack stops within a second, however far its start or the demo got. */
const STOP_WITHIN_MS = 400;

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  let stopStack: Stack['stop'] | undefined;
  const stopAll = async (withinMs?: number) => {
    await stopStack?.({ withinMs });
    // A dev server still starting is not the stack's yet; none may outlive this process.
    await stopDevServers(0);
  };
  exitOnSignals(async () => {
    print('stopping …');
    await stopAll(STOP_WITHIN_MS);
  });
  const external = process.env.TEMPORAL_ADDRESS ? readTemporalConfig() : undefined;
  const embedded = parseEnvironment(embeddedEnvironment);
  const simulatorConfig = readSimulatorConfig();
  const bridgeConfig = readBridgeConfig();
  const codecServer = readCodecServerConfig();
  const payloadKeys = readPayloadKeys();
  const caseFile = readCaseFileConfig();
  if (caseFile.embedded) await ensurePortFree(caseFile.embedded.port, 'CASE_FILE_PORT');
  const caseApi = readCaseApiConfig();
  const caseEvents = readCaseEventsConfig();
  if (!external) await ensurePortFree(embedded.TEMPORAL_DEV_PORT, 'TEMPORAL_DEV_PORT');
  await ensurePortFree(simulatorConfig.port, 'SIMULATOR_PORT');
  await ensurePortFree(bridgeConfig.port, 'BRIDGE_PORT');
  await ensurePortFree(codecServer.port, 'CODEC_SERVER_PORT');
  await ensurePortFree(caseApi.port, 'CASE_API_PORT');
  installRuntimeLogging();

  let stack: Stack | undefined;
  const exit = async (code: number) => {
    print('stopping …');
    await stopAll();
    process.exit(code);
  };

  print(external ? `connecting to Temporal at ${external.address}` : 'starting the embedded Temporal dev server …');
  try {
    stack = await startStack({
      temporal: external,
      embedded: {
        port: embedded.TEMPORAL_DEV_PORT,
        uiPort: embedded.TEMPORAL_UI_PORT,
        dbFile: embedded.TEMPORAL_DB_FILE,
      },
      simulatorPort: simulatorConfig.port,
      simulatorSeed: simulatorConfig.seed,
      // Temporal keeps its state in .data/: the provider must keep its own, or resumed journeys
      // wait on requests it never heard of.
      simulatorStateFile: simulatorConfig.stateFile ?? dataPath('simulator-state.json'),
      bridgePort: bridgeConfig.port,
      spoolDir: bridgeConfig.spoolDir,
      codecServer,
      caseApi,
      caseEvents,
      payloadKeys,
      caseFile: stackCaseFile(caseFile),
      progress: print,
      exposeStop: (stop) => (stopStack = stop),
    });
    // Where the keys are, never the keys: the file is readable by this user only.
    if (caseApi.keyFile) print(`case API keys (origination, operator) are in ${caseApi.keyFile}`);
    const outcome = await runDemoJourney(stack, print);
    const reasons = outcome.status.reasons.join('; ');
    print(`outcome: ${outcome.status.state}${reasons ? ` — ${reasons}` : ''}`);
    print(
      `case file: ${describeCounts(await stack.caseFile.counts(outcome.caseId))} (npm ` +
        `run journey -- evidence ${outcome.caseId})`,
    );
    const ui = stack.devServer?.uiUrl;
    if (ui)
      print(
        `Web UI: ${ui}/namespaces/${stack.temporal.namespace}/workflows/` +
          `${encodeURIComponent(outcome.workflowId)}/${outcome.runId}/history`,
      );
    if (keep) {
      print('stack is up (--keep); press Ctrl-C to stop');
      return;
    }
    await exit(outcome.status.state === 'completed' ? 0 : 1);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The embedded case file keeps its data in `.data/case-file/` and listens where the CLI looks for it. */
function stackCaseFile(config: CaseFileConfig) {
  return config.embedded ? { embedded: config.embedded } : { url: config.url, poolSize: config.poolSize };
}

/** One line: what the demo case's file holds. */
function describeCounts(c: CaseFileCounts): string {
  return [
    `${c.credit_reports} credit report(s)`,
    `${c.idv_results} IDV result(s)`,
    `${c.bank_accounts} bank account(s) with ${c.bank_transactions} transactions`,
    `${c.affordability_insights} affordability insight(s) with ${c.affordability_transactions} transactions`,
    `${c.income_employer_results} income-and-employer result(s)`,
    `${c.documents} document(s), ${c.document_bytes} bytes`,
  ].join(', ');
}

function ensurePortFree(port: number, variable: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', () =>
      reject(
        new ConfigurationError(
          `Port ${port} on 127.0.0.1 is in use (is another stack running?). Stop it, ` +
            `or set ${variable} to a free port.`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

main().catch(exitOnConfigurationError);
