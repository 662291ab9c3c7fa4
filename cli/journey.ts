/**
 * `journey` (package bin; `npx journey`, `npm run journey --`): the operator CLI. Arguments are
 * parsed and checked (commander, cli/journeyProgram.ts) before it connects with TEMPORAL_*
 * (config/temporalConfig.ts). Exit codes: 0 done; 1 the command failed; 2 usage error (nothing was sent).
 */
import { CommanderError } from 'commander';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';
import type { JourneyClientContext } from '../client/journeyOperations';
import { exitOnSignals } from './exitOnSignals';
import { JourneyCommandError } from './journeyInputFile';
import {
  journeyProgram,
  type CaseFileAccess,
  type LocalRun,
  type Outcome,
  type Output,
  type Run,
} from './journeyProgram';

type Choice = { temporal: Run } | { local: LocalRun };

/** Parses argv; returns the command to run, or exits (0 after --help, 2 on a usage error). */
function parse(argv: string[]): Choice {
  let run: Choice | undefined;
  const program = journeyProgram(
    (chosen) => (run = { temporal: chosen }),
    (chosen) => (run = { local: chosen }),
  );
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    if (error instanceof JourneyCommandError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  if (!run) {
    program.outputHelp({ error: true });
    process.exit(2);
  }
  return run;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const choice = parse(argv);
  // Ctrl-C or SIGTERM ends any command at once (watch, a bulk retry): nothing it left half done
  // is lost, as every action is an Update a repeat with the same request id answers.
  exitOnSignals((signal) => console.error(`${argv.find((a) => !a.startsWith('-')) ?? 'journey'}: stopped (${signal})`));
  const json = argv.includes('--json');
  // watch prints as it goes: text blocks, or one JSON document per line.
  const out: Output = {
    json,
    print: (text, value) => console.log(json ? JSON.stringify(value) : text),
    progress: (line) => console.error(line),
  };
  const access = caseFileAccess();
  try {
    const result =
      'local' in choice
        ? await choice.local(access, out)
        : await withTemporal((ctx) => choice.temporal({ ...ctx, ...access }, out));
    if (!result.printed) console.log(json ? JSON.stringify(result.json, null, 2) : result.text);
    if (result.failed) process.exitCode = 1;
  } catch (error) {
    console.error(
      error instanceof JourneyCommandError
        ? error.message
        : `${argv.find((a) => !a.startsWith('-')) ?? 'command'} failed: ${refusal(error)}`,
    );
    process.exitCode = 1;
  } finally {
    await access.close();
  }
}

/** The case file, opened on first use (DATABASE_URL, or the embedded one `npm start` serves). */
function caseFileAccess(): CaseFileAccess & { close(): Promise<void> } {
  const { readCaseFileConfig } = require('../case-file/config') as typeof import('../case-file/config');
  const { openCaseFile } = require('../case-file/store') as typeof import('../case-file/store');
  let store: ReturnType<typeof openCaseFile> | undefined;
  return {
    caseFile() {
      const config = readCaseFileConfig();
      store ??= openCaseFile(config.url, config.poolSize).catch((error: Error) => {
        const hint = config.embedded
          ? 'start the stack with `npm start -- --keep`, or set DATABASE_URL'
          : 'check DATABASE_URL';
        throw new JourneyCommandError(`cannot open the case file: ${error.message}\n${hint}`);
      });
      return store;
    },
    async close() {
      await (await store?.catch(() => undefined))?.close();
    },
  };
}

/** Connects with TEMPORAL_* (loading the SDK only now), or ends the process naming the address it could not reach. */
async function withTemporal(work: (ctx: JourneyClientContext) => Promise<Outcome>): Promise<Outcome> {
  // require: the bin's tsx hook is CommonJS, and a usage error never pays for the SDK.
  const { connectTemporalClient } = require('../client/temporalClient') as typeof import('../client/temporalClient');
  const { readPayloadKeys } = require('../codec/payloadKeys') as typeof import('../codec/payloadKeys');
  const { installRuntimeLogging } = require('../worker/runtimeLogging') as typeof import('../worker/runtimeLogging');
  const { readTemporalConfig } = require('../config/temporalConfig') as typeof import('../config/temporalConfig');
  const temporal = readTemporalConfig();
  // Read before connecting: a bad key list is a configuration error, not an unreachable Temporal.
  const payloadKeys = readPayloadKeys();
  installRuntimeLogging();
  const { client, connection } = await connectTemporalClient(temporal, payloadKeys).catch((error: Error) => {
    console.error(
      `cannot reach Temporal at ${temporal.address}: ${error.message}\nstart the stack ` +
        `with \`npm start -- --keep\`, or set TEMPORAL_ADDRESS`,
    );
    process.exit(1);
  });
  try {
    return await work({ client, taskQueue: temporal.taskQueue });
  } finally {
    await connection.close();
  }
}

/** A refused Update's own words (the validator's message), not "Workflow Update failed"; a missing journey by name. */
function refusal(error: unknown): string {
  if ((error as Error).name === 'WorkflowNotFoundError') return (error as Error).message;
  const cause = (error as { cause?: { message?: string } }).cause;
  return cause?.message ?? (error as Error).message;
}

main().catch(exitOnConfigurationError);
