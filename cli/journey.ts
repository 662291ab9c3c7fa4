/**
 * `npm run journey -- <command>`: the operator CLI. Connects with TEMPORAL_* (DESIGN.md §9), after
 * its arguments are checked, and to the case file (DATABASE_URL, else the embedded one) for the
 * commands that use it; `upload` and `evidence` need only the case file. `--json` prints what the command returns as JSON.
 *
 * Exit codes: 0 done; 1 the command failed (the journey refused an action, a replay diverged, a
 * connection failed); 2 a usage error (nothing was sent).
 */
import { Client, Connection } from '@temporalio/client';
import { readProviderConfig } from '../activities/providerConfig';
import { ProviderClient } from '../activities/providerClient';
import { readCaseFileConfig } from '../case-file/config';
import { openCaseFile, type CaseFileStore } from '../case-file/store';
import { dataConverterFor } from '../codec/dataConverter';
import { readPayloadKeys } from '../codec/payloadKeys';
import { exitOnConfigurationError } from '../worker/exitOnConfigurationError';
import { installRuntimeLogging } from '../worker/runtimeLogging';
import { readTemporalConfig, temporalConnectionOptions } from '../worker/temporalConfig';
import {
  cancelJourney,
  formatRetryPlan,
  formatStatus,
  JourneyCommandError,
  journeyStatus,
  listJourneys,
  planJourneyRetry,
  readJourneyInput,
  replayJourney,
  resolvePicklist,
  retryJourney,
  retryStep,
  startJourney,
  waiveStep,
  type CommandContext,
} from './journeyCommands';
import { documentReference, exportDocument, formatEvidence, purgeCaseFile, readDocumentFile, uploadDocument } from './caseFileCommands';
import { syncWebhooks } from './webhookSync';

const usage = `usage: npm run journey -- <command> [--json]
  start <input.json>                   start case/<caseId> from a journey input (JSON)
  status <caseId>                      the journey and every step: attempts, reasons, provider errors, links, picklist
  list [--state <state>]               journeys, optionally by state (running, completed, needs_attention, cancelled)
  retry-step <caseId> <step> [reason]  run a step of an open journey again, as a new attempt
  waive <caseId> <step> <reason>       accept a step as it stands (the reason is recorded)
  resolve-picklist <caseId> <id>       resolve the credit report picklist with provider_id <id>
  cancel <caseId> [reason]             cancel a running journey
  retry <caseId> [--dry-run]           run a closed journey again: completed and waived steps carried over, the others re-run
  replay <caseId>                      replay the journey's histories (children and resources too) against this checkout
  upload <caseId> <file> [--type <t>]  put a document in the case file; a journey input names it by the printed document_id
                                       (t: BankStatement, Payslip, SA302, TaxOverview)
  evidence <caseId>                    the case file's contents by step attempt (--json: all of it, transactions included)
  evidence <caseId> --export-document <documentId> <file>
                                       write a document's bytes to <file>
  purge <caseId>                       delete a closed case's data from the case file (erasure); refused while it runs
  webhooks sync <callbackUrl>...       create or update the provider's webhooks (one per URL: two give redundant delivery) and its signing secret (PROVIDER_* variables)`;

const journeyStates = ['running', 'completed', 'needs_attention', 'cancelled'];

/** The case file is opened only by the commands that use it. */
type CliContext = CommandContext & { caseFile(): Promise<CaseFileStore> };

type Result = { text: string; json: unknown; failed?: boolean };
type Run = (ctx: CliContext) => Promise<Result>;
/** A command that needs only the case file runs without connecting to Temporal. */
type CaseFileRun = { caseFileOnly: (store: CaseFileStore) => Promise<Result> };
/** A command that talks to the provider only: neither Temporal nor the case file. */
type ProviderRun = { providerOnly: () => Promise<Result> };

class UsageError extends Error {}

/** The i-th argument, or a usage error naming it. */
const arg = (args: string[], i: number, what: string): string => {
  const value = args[i];
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
};

const done = (text: string, json: unknown = { ok: true }) => ({ text, json });

/** Parses the command line into something to run, before any connection is made. */
function parse(name: string | undefined, args: string[], flags: Set<string>): Run | CaseFileRun | ProviderRun {
  switch (name) {
    case 'start': {
      const input = readJourneyInput(arg(args, 0, '<input.json>'));
      return async (ctx) => {
        const workflowId = await startJourney(ctx, input);
        return done(`started ${workflowId}`, { workflowId });
      };
    }
    case 'status': {
      const caseId = arg(args, 0, '<caseId>');
      return async (ctx) => {
        const status = await journeyStatus(ctx, caseId);
        return done(formatStatus(status), status);
      };
    }
    case 'list': {
      const state = args[0] === '--state' ? arg(args, 1, '<state>') : undefined;
      if (state && !journeyStates.includes(state)) throw new UsageError(`unknown state ${state}; one of ${journeyStates.join(', ')}`);
      return async (ctx) => {
        const rows = await listJourneys(ctx, state);
        const text = rows.length ? [`${'CASE'.padEnd(40)} ${'STATE'.padEnd(16)} RUN`, ...rows.map((r) => `${r.caseId.padEnd(40)} ${r.state.padEnd(16)} ${r.runStatus.toLowerCase()}`)].join('\n') : 'no journeys';
        return done(text, rows);
      };
    }
    case 'retry-step': {
      const [caseId, step] = [arg(args, 0, '<caseId>'), arg(args, 1, '<step>')];
      const reason = args.slice(2).join(' ') || undefined;
      return async (ctx) => {
        const result = await retryStep(ctx, caseId, step, reason);
        return done(`${step}: attempt ${result.status.attempt} started (${result.status.workflowId})`, result);
      };
    }
    case 'waive': {
      const [caseId, step] = [arg(args, 0, '<caseId>'), arg(args, 1, '<step>')];
      const reason = args.slice(2).join(' ');
      if (!reason) throw new UsageError('missing <reason>: a waiver is recorded with its reason');
      return async (ctx) => done(`${step}: waived`, await waiveStep(ctx, caseId, step, reason));
    }
    case 'resolve-picklist': {
      const [caseId, providerId] = [arg(args, 0, '<caseId>'), arg(args, 1, '<provider_id>')];
      return async (ctx) => {
        const result = await resolvePicklist(ctx, caseId, providerId);
        const report = (result.status.detail as { report?: { company_name?: string; provider_id?: string } } | null)?.report;
        return done(`credit-report ${result.status.state}: ${report?.company_name ?? '?'} (${report?.provider_id ?? providerId})`, result);
      };
    }
    case 'cancel': {
      const caseId = arg(args, 0, '<caseId>');
      const reason = args.slice(1).join(' ') || undefined;
      return async (ctx) => {
        await cancelJourney(ctx, caseId, reason);
        return done(`cancel requested for case/${caseId}`);
      };
    }
    case 'retry': {
      const caseId = arg(args, 0, '<caseId>');
      return async (ctx) => {
        const plan = await planJourneyRetry(ctx, caseId);
        const { input: _input, ...summary } = plan;
        if (flags.has('--dry-run')) return done(`${formatRetryPlan(plan)}\n(dry run: nothing started)`, { ...summary, dryRun: true });
        const runId = await retryJourney(ctx, plan);
        return done(`${formatRetryPlan(plan)}\nretried case/${caseId} as run ${runId}`, { ...summary, runId });
      };
    }
    case 'replay': {
      const caseId = arg(args, 0, '<caseId>');
      return async (ctx) => {
        const results = await replayJourney(ctx, caseId);
        const diverged = results.find((r) => r.error);
        const text = diverged
          ? `${diverged.workflowId} does not replay: ${diverged.error}\n(${results.length} histories replayed)`
          : `case/${caseId} replays deterministically: ${results.length} histories (${results.map((r) => `${r.workflowId}: ${r.events} events`).join(', ')})`;
        return { text, json: results, failed: Boolean(diverged) };
      };
    }
    case 'upload': {
      const [caseId, file] = [arg(args, 0, '<caseId>'), arg(args, 1, '<file>')];
      const type = args[2] === '--type' ? arg(args, 3, '<type>') : undefined;
      const document = readDocumentFile(file, type);
      return {
        caseFileOnly: async (store) => {
          const stored = await uploadDocument(store, caseId, document);
          const reference = documentReference(stored);
          const text = [`stored ${stored.file_name} (${stored.size_bytes} bytes) as document ${stored.document_id}`, `name it in the journey input's steps.documents: ${JSON.stringify(reference)}`];
          return done(text.join('\n'), reference);
        },
      };
    }
    case 'evidence': {
      const caseId = arg(args, 0, '<caseId>');
      if (args[1] === '--export-document') {
        const [documentId, file] = [arg(args, 2, '<documentId>'), arg(args, 3, '<file>')];
        return {
          caseFileOnly: async (store) => {
            const exported = await exportDocument(store, caseId, documentId, file);
            return done(`wrote ${exported.file_name} (${exported.size_bytes} bytes) to ${file}`, exported);
          },
        };
      }
      return {
        caseFileOnly: async (store) => {
          const evidence = await store.evidence(caseId);
          return done(formatEvidence(evidence), evidence);
        },
      };
    }
    case 'purge': {
      const caseId = arg(args, 0, '<caseId>');
      return async (ctx) => {
        const deleted = await purgeCaseFile(ctx, await ctx.caseFile(), caseId);
        const rows = Object.values(deleted).reduce((a, b) => a + b, 0);
        return done(`purged case ${caseId} from the case file: ${rows} rows (${Object.entries(deleted).filter(([, n]) => n > 0).map(([t, n]) => `${t} ${n}`).join(', ') || 'nothing was there'})`, deleted);
      };
    }
    case 'webhooks': {
      if (args[0] !== 'sync') throw new UsageError(`unknown webhooks command: ${args[0] ?? '(none)'}; the one there is: webhooks sync <callbackUrl>...`);
      const callbackUrls = args.slice(1);
      if (callbackUrls.length === 0) throw new UsageError('missing <callbackUrl>: the bridge address the provider posts to, e.g. https://bridge.example.com/webhooks');
      const provider = new ProviderClient(readProviderConfig());
      return {
        providerOnly: async () => {
          const result = await syncWebhooks(provider, { callbackUrls });
          const lines = result.webhooks.map((w) => `${w.action.padEnd(8)} ${w.name} → ${w.callback_url} (${w.webhook_id})`);
          lines.push(`${result.eventTypes.length} event types each; signing secret ${result.secret.action} (updated ${result.secret.date_updated}; give it to the bridges as WEBHOOK_SECRET, or set WEBHOOK_SECRET_SOURCE=provider)`);
          return done(lines.join('\n'), result);
        },
      };
    }
    default:
      throw new UsageError(name ? `unknown command: ${name}` : 'no command given');
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flags = new Set<string>(argv.filter((a) => ['--json', '--dry-run', '--help', '-h'].includes(a)));
  const [name, ...args] = argv.filter((a) => !flags.has(a));
  if (flags.has('--help') || flags.has('-h')) {
    console.log(usage);
    return;
  }
  let command: Run | CaseFileRun | ProviderRun;
  try {
    command = parse(name, args, flags);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof JourneyCommandError)) throw error;
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  const caseFileConfig = readCaseFileConfig();
  let store: Promise<CaseFileStore> | undefined;
  const caseFile = () => (store ??= openCaseFile(caseFileConfig.url, caseFileConfig.poolSize).catch((error: Error) => {
    const hint = caseFileConfig.embedded ? 'start the stack with `npm start -- --keep`, or set DATABASE_URL' : 'check DATABASE_URL';
    throw new JourneyCommandError(`cannot open the case file: ${error.message}\n${hint}`);
  }));
  try {
    if ('providerOnly' in command) {
      await report(name, flags, command.providerOnly);
    } else if ('caseFileOnly' in command) {
      const run = command.caseFileOnly;
      await report(name, flags, async () => run(await caseFile()));
    } else {
      await withTemporal(async (ctx) => report(name, flags, () => command({ ...ctx, caseFile })));
    }
  } finally {
    await (await store?.catch(() => undefined))?.close();
  }
}

/** Connects with TEMPORAL_*, or ends the process naming the address it could not reach. */
async function withTemporal(work: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const temporal = readTemporalConfig();
  const dataConverter = dataConverterFor(readPayloadKeys());
  installRuntimeLogging();
  const connection = await Connection.connect(temporalConnectionOptions(temporal)).catch((error: Error) => {
    console.error(`cannot reach Temporal at ${temporal.address}: ${error.message}\nstart the stack with \`npm start -- --keep\`, or set TEMPORAL_ADDRESS`);
    process.exit(1);
  });
  try {
    await work({ client: new Client({ connection, namespace: temporal.namespace, dataConverter }), taskQueue: temporal.taskQueue });
  } finally {
    await connection.close();
  }
}

/** Prints the command's result (or its failure, without a stack) and sets the exit code. */
async function report(name: string | undefined, flags: Set<string>, run: () => Promise<Result>): Promise<void> {
  try {
    const result = await run();
    console.log(flags.has('--json') ? JSON.stringify(result.json, null, 2) : result.text);
    if (result.failed) process.exitCode = 1;
  } catch (error) {
    console.error(error instanceof JourneyCommandError ? error.message : `${name} failed: ${refusal(error)}`);
    process.exitCode = 1;
  }
}

/** A refused Update's own words (the validator's message), not "Workflow Update failed". */
function refusal(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause;
  return cause?.message ?? (error as Error).message;
}

main().catch(exitOnConfigurationError);
