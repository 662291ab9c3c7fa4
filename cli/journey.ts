/**
 * `npm run journey -- <command>`: the operator CLI. Connects with TEMPORAL_* (DESIGN.md §9).
 *
 *   start <input.json>                  start case/<caseId> from a journey input
 *   status <caseId>                     the journey and every step
 *   list [--state <state>]              journeys, optionally by JourneyState
 *   resolve-picklist <caseId> <id>      resolve the credit report picklist with provider_id <id>
 *   cancel <caseId> [reason]            cancel a running journey
 *   retry <caseId>                      start a closed journey again with its original input
 *   replay <caseId>                     replay its history against this checkout's workflow code
 */
import { Client, Connection } from '@temporalio/client';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys } from '../codec/payloadKeys';
import { exitOnConfigurationError } from '../worker/exitOnConfigurationError';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { readTemporalConfig, temporalConnectionOptions } from '../worker/temporalConfig';
import {
  cancelJourney,
  formatStatus,
  JourneyCommandError,
  journeyStatus,
  listJourneys,
  readJourneyInput,
  replayJourney,
  resolvePicklist,
  retryJourney,
  startJourney,
  type CommandContext,
} from './journeyCommands';

const usage = `usage: npm run journey -- <command>
  start <input.json>              start case/<caseId> from a journey input (JSON)
  status <caseId>                 the journey and every step
  list [--state <state>]          journeys, optionally by state (running, completed, needs_attention, cancelled)
  resolve-picklist <caseId> <id>  resolve the credit report picklist with provider_id <id>
  cancel <caseId> [reason]        cancel a running journey
  retry <caseId>                  start a closed journey again with its original input
  replay <caseId>                 replay its history against this checkout's workflow code`;

type Command = (ctx: CommandContext, args: string[]) => Promise<string>;

/** The i-th argument, or a usage error naming it. */
const arg = (args: string[], i: number, what: string): string => {
  const value = args[i];
  if (!value) throw new JourneyCommandError(`missing ${what}\n${usage}`);
  return value;
};

const commands: Record<string, Command> = {
  start: async (ctx, args) => `started ${await startJourney(ctx, readJourneyInput(arg(args, 0, '<input.json>')))}`,
  status: async (ctx, args) => formatStatus(await journeyStatus(ctx, arg(args, 0, '<caseId>'))),
  list: async (ctx, args) => {
    const state = args[0] === '--state' ? arg(args, 1, '<state>') : undefined;
    const rows = await listJourneys(ctx, state);
    return rows.length ? rows.map((r) => `${r.caseId.padEnd(40)} ${r.state.padEnd(16)} ${r.runStatus.toLowerCase()}`).join('\n') : 'no journeys';
  },
  'resolve-picklist': async (ctx, args) => {
    const detail = await resolvePicklist(ctx, arg(args, 0, '<caseId>'), arg(args, 1, '<provider_id>'));
    return `resolved: ${detail.report?.company_name ?? '?'} (${detail.report?.provider_id ?? '?'})`;
  },
  cancel: async (ctx, args) => {
    const caseId = arg(args, 0, '<caseId>');
    await cancelJourney(ctx, caseId, args.slice(1).join(' ') || undefined);
    return `cancel requested for case/${caseId}`;
  },
  retry: async (ctx, args) => `retried case/${arg(args, 0, '<caseId>')} as run ${await retryJourney(ctx, args[0] as string)}`,
  replay: async (ctx, args) => `case/${arg(args, 0, '<caseId>')} replays deterministically (${await replayJourney(ctx, args[0] as string)} events)`,
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  if (!command) {
    console.error(name ? `unknown command: ${name}\n${usage}` : usage);
    process.exit(2);
  }
  const temporal = readTemporalConfig();
  const dataConverter = dataConverterFor(readPayloadKeys());
  installRuntimeLogging();
  const connection = await Connection.connect(temporalConnectionOptions(temporal));
  try {
    console.log(await command({ client: new Client({ connection, namespace: temporal.namespace, dataConverter }), taskQueue: temporal.taskQueue }, args));
  } catch (error) {
    console.error(error instanceof JourneyCommandError ? error.message : `${name} failed: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await connection.close();
  }
}

main().catch(exitOnConfigurationError);
