/**
 * The `journey` command line (commander): every command checks its arguments and builds what it
 * will run before anything connects to Temporal; `--json` anywhere prints JSON instead of text.
 */
import { Argument, Command, Option } from 'commander';
import type { z } from 'zod';
import type { WorkflowHandle } from '@temporalio/client';
import type { JourneyStatus } from '../client/journeyMessages';
import type { CaseFileStore } from '../case-file/store';
import type { JourneyClientContext, JourneyReadContext } from '../client/journeyOperations';
import { describeIssues } from '../provider';
import {
  bulkRetryDefaultConcurrency,
  bulkRetryMaxCases,
  bulkRetryMaxConcurrency,
  bulkStepRetryRequestSchema,
  type BulkStepRetryRequest,
} from '../client/bulkStepRetryRequest';
import { evidenceRefreshAction, journeySteps, operatorActions } from '../client/journeyNames';
import { evidenceRefreshRequestSchema, type EvidenceRefreshRequest } from '../client/evidenceRefreshRequest';
import type { EvidenceRefreshPlan } from '../client/evidenceRefresh';
import { evidenceKindNames } from '../client/evidenceValidity';
import { operatorIdentity, type OperatorIdentity } from '../client/operatorIdentity';
import { operatorRequestIdSchema, type OperatorAction } from '../client/operatorRequestId';
import { caseIdSchema } from '../client/caseId';
import { bureauCompanyIdSchema, referenceSchema, stepKeySchema } from '../client/idSchemas';
import { documentReferenceSchema } from '../client/journeyInput';
import { JourneyCommandError, readJourneyInput } from './journeyInputFile';
import { textTable } from './textTable';
import { addFunnelCommand } from './funnelCommand';

/**
 * The commands and the SDK load only once the arguments are valid, so a usage error answers at once.
 * require(), not import(): the bin runs under tsx's CommonJS hook, which serves require() only.
 */
const later = {
  operations: () => require('../client/journeyOperations') as typeof import('../client/journeyOperations'),
  retry: () => require('../client/journeyRetry') as typeof import('../client/journeyRetry'),
  refresh: () => require('../client/evidenceRefresh') as typeof import('../client/evidenceRefresh'),
  bulkRetry: () => require('../client/bulkStepRetry') as typeof import('../client/bulkStepRetry'),
  replay: () => require('../client/journeyReplay') as typeof import('../client/journeyReplay'),
  format: () => require('./journeyFormat') as typeof import('./journeyFormat'),
  watchStatus: () => require('./watchStatus') as typeof import('./watchStatus'),
  journeyMessages: () => require('../client/journeyMessages') as typeof import('../client/journeyMessages'),
  workflowCode: () => {
    const bundle = require('../worker/workflowBundle') as typeof import('../worker/workflowBundle');
    return { workflowsPath: bundle.workflowsPath, bundlerOptions: bundle.bundlerOptionsFor(bundle.workflowsPath) };
  },
};

export interface Outcome {
  text: string;
  json: unknown;
  failed?: boolean;
  /** The command printed its output as it went. */
  printed?: boolean;
}

export interface Output {
  json: boolean;
  print: (text: string, json: unknown) => void;
  /** A progress line, on stderr (it never mixes with --json's output). */
  progress?: (line: string) => void;
}

/** The case file, opened only by the commands that use it. */
export interface CaseFileAccess {
  caseFile(): Promise<CaseFileStore>;
}

/** What a parsed command runs once connected. `stream` commands print as they go. */
export type Run = (ctx: JourneyClientContext & CaseFileAccess, out: Output) => Promise<Outcome>;

/** A command that needs no Temporal (the case file, the provider): it runs without connecting. */
export type LocalRun = (local: CaseFileAccess, out: Output) => Promise<Outcome>;

export const exitCodes = `Exit codes:
  0  done (watch: the journey completed)
  1  the command failed: the journey refused an action, a replay diverged, Temporal could not be reached,
     (watch) the journey ended other than completed, or (retry-step --where --yes) a case was not accepted
  2  usage error: nothing was sent
  130, 143  stopped by Ctrl-C (SIGINT) or SIGTERM, at once: a bulk retry resumes with its --request-id`;

const journeyStates = ['running', 'completed', 'needs_attention', 'cancelled'];
const done = (text: string, json: unknown = { ok: true }): Outcome => ({ text, json });

/**
 * Builds the program; `chosen(run)` receives the command's run once its arguments are valid, and
 * `chosenLocal(run)` a run that needs no Temporal connection.
 */
export function journeyProgram(chosen: (run: Run) => void, chosenLocal: (run: LocalRun) => void = () => {}): Command {
  const program = new Command('journey')
    .description('Operate onboarding journeys (case/<caseId>) on Temporal. Connects with TEMPORAL_* (see README).')
    .option('--json', 'print JSON instead of text')
    // Set before the commands are added: subcommands copy these settings when created.
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', `\n${exitCodes}`);
  const command = (name: string, description: string) =>
    program
      .command(name)
      .description(description)
      .option('--json', 'print JSON instead of text')
      .addHelpText('after', `\n${exitCodes}`);

  command('start', 'start case/<caseId> from a journey input file (JSON, validated)')
    .argument('<input.json>', 'the journey input (client/journeyInput.ts)')
    .action((file: string) => {
      const input = readJourneyInput(file);
      chosen(async (ctx, out) => {
        // With the case file, so the case is listed and searched by its names and reference.
        const started = await later.operations().startJourney(await withReadModel(ctx, out), input);
        return done(
          started.created ? `started ${started.workflowId}` : `${started.workflowId} exists already: nothing started`,
          started,
        );
      });
    });

  command('status', 'the journey and every step: attempts, reasons, provider errors, links, picklist')
    .addArgument(caseIdArgument('<caseId>'))
    .action((caseId: string) =>
      chosen(async (ctx) => {
        const status = await later.operations().journeyStatus(await withCaseFile(ctx), caseId);
        return done(later.format().formatStatus(status), status);
      }),
    );

  command(
    'list',
    'journeys, the latest run of each case, optionally by state, step, step state, name, reference or owner ' +
      '(from the case file)',
  )
    .addOption(new Option('--state <state>', 'only journeys in this state').choices(journeyStates))
    .option('--step <step>', "only cases with this step (banking, or identity-verification for every person's)")
    .option('--step-state <state>', 'only cases with a step (the --step one, else any) in this state')
    .option('--name <text>', "part of the company's or an applicant's name, any case")
    .option(
      '--reference <id>',
      "only the cases started with this lender's reference (exactly)",
      checkedBy(referenceSchema, '--reference'),
    )
    .option('--assignee <operator>', 'only cases this operator owns')
    .addOption(new Option('--unassigned', 'only cases nobody owns').conflicts('assignee'))
    .action(
      (options: {
        state?: string;
        step?: string;
        stepState?: string;
        name?: string;
        reference?: string;
        assignee?: string;
        unassigned?: boolean;
      }) =>
        chosen(async (ctx) => {
          const assignee = options.unassigned
            ? { assignee: '' }
            : options.assignee !== undefined
              ? { assignee: options.assignee }
              : {};
          const filters = {
            ...(options.step ? { step: options.step } : {}),
            ...(options.stepState ? { stepState: options.stepState } : {}),
            ...(options.name ? { name: options.name } : {}),
            ...(options.reference ? { reference: options.reference } : {}),
            ...assignee,
          };
          const rows = await later.operations().listAllJourneys(await withCaseFile(ctx), options.state, filters);
          const who = (r: (typeof rows)[number]) => [
            r.company ?? '',
            (r.applicants ?? []).map((a) => a.name ?? a.personId).join(', '),
            r.waitingSince ?? '',
            r.assignee ?? '',
          ];
          const text = rows.length
            ? textTable(
                ['CASE', 'REFERENCE', 'STATE', 'RUN', 'COMPANY', 'APPLICANTS', 'WAITING SINCE', 'OWNER'],
                rows.map((r) => [r.caseId, r.reference ?? '', r.state, r.runStatus.toLowerCase(), ...who(r)]),
              )
            : 'no journeys';
          return done(text, rows);
        }),
    );

  command('watch', 'follow a journey live until it ends (--json: one status per line)')
    .addArgument(caseIdArgument('<caseId>'))
    .action((caseId: string) =>
      chosen(async (ctx, out) => {
        const [{ formatStatus }, { watchStatus, watchReadModel }, { journeyStatusQuery, journeyWorkflowId }] = [
          later.format(),
          later.watchStatus(),
          later.journeyMessages(),
        ];
        const handle: WorkflowHandle = ctx.client.workflow.getHandle(journeyWorkflowId(caseId));
        const onChange = (s: JourneyStatus) => out.print(`${new Date().toISOString()}\n${formatStatus(s)}\n`, s);
        const { readModel } = await withReadModel(ctx, out);
        const { readCaseStatus } = require('../client/caseReads') as typeof import('../client/caseReads');
        // From the read model when it holds the case: its changes cost reads of the case file, not queries.
        const first = readModel && (await readCaseStatus(readModel, caseId));
        if (!first) await handle.describe();
        out.progress?.(`following case/${caseId} until its journey ends (Ctrl-C to stop)`);
        const last = first
          ? await watchReadModel(() => readCaseStatus(readModel!, caseId), handle.result(), {
              onChange,
              intervalMs: 500,
              final: (s) => s.runStatus !== 'RUNNING',
              mark: async () => (await readModel!.caseMarks([caseId])).get(caseId),
            })
          : await watchStatus<JourneyStatus>(handle, { query: journeyStatusQuery, onChange, intervalMs: 500 });
        // The last line too goes out as the stream does (one JSON document per line).
        out.print(`case/${caseId} ended ${last.state}`, { caseId, ended: last.state });
        return { text: '', json: null, failed: last.state !== 'completed', printed: true };
      }),
    );

  command(
    operatorActions.retryStep.cli,
    'run a step of an open journey again, as a new attempt; with --where, on every ' +
      'running journey a visibility query matches',
  )
    .addArgument(caseIdArgument('[caseId]', 'the case (not with --where)'))
    .addArgument(
      new Argument(
        '[step]',
        `step key, e.g. ${journeySteps.creditReport.key} or ${journeySteps.identityVerification.key}/<personId>`,
      ).argParser(checkedBy(stepKeySchema, '<step>')),
    )
    .argument('[reason...]', 'why (recorded with the attempt)')
    .option(
      '--fresh',
      'ask the provider for a new purchase (a new report, a new IDV request) instead ' +
        'of continuing what it still holds for the step',
    )
    .option(
      '--request-id <id>',
      requestIdHelp(
        operatorActions.retryStep.name,
        ` (with --where: ${operatorActions.retryStep.name}/<id>/<caseId> on each case, ` +
          `so a re-run with the printed id resumes)`,
      ),
    )
    .option(
      '--where <query>',
      'bulk: a Temporal visibility query, e.g. "JourneyState = \'needs_attention\'"; ' +
        'only running journeys of this task queue are considered',
    )
    .option('--step <step>', 'bulk: the step to retry on each case')
    .option('--reason <text>', 'bulk: why (required; recorded with each new attempt)')
    .option(
      '--yes',
      'bulk: retry the step on each case; without it, a dry run that lists the cases and retries nothing',
    )
    .option(
      '--concurrency <n>',
      `bulk: cases retried at once (default ${bulkRetryDefaultConcurrency}, at most ${bulkRetryMaxConcurrency})`,
    )
    .option('--actor <name>', actorHelp)
    .addHelpText(
      'after',
      `
Bulk retry (after a provider outage), at most ${bulkRetryMaxCases} cases an invocation:
  journey retry-step --where "JourneyState = 'needs_attention'" --step credit-report --reason 'provider outage'
      lists the matching cases with the step's state on each, and the command that retries them
  journey retry-step --where … --step credit-report --reason 'provider outage' --request-id <id> --yes
      retries each (progress on stderr) and prints a summary: accepted, refused (the journey's
      message), failed; exit 1 when any case was not accepted. Run it again with the same
      --request-id to retry only the rest: accepted cases answer their first result.`,
    )
    .action((caseId: string | undefined, step: string | undefined, reason: string[], options: RetryStepOptions) => {
      if (options.where !== undefined) {
        const request = bulkRequest(caseId, options);
        chosen(async (ctx, out) =>
          bulkRetryStep(
            await withReadModel(ctx, out),
            out,
            { ...request, actor: actorOf(options) },
            Boolean(options.yes),
          ),
        );
        return;
      }
      for (const flag of ['yes', 'concurrency'] as const)
        if (options[flag] !== undefined)
          throw new JourneyCommandError(`retry-step --${flag} belongs to a bulk retry (--where)`);
      if (step !== undefined && options.step !== undefined)
        throw new JourneyCommandError('retry-step: give the step once, as <step> or as --step');
      const stepKey = step ?? options.step;
      if (caseId === undefined || stepKey === undefined)
        throw new JourneyCommandError(
          'retry-step needs <caseId> <step> [reason…], or --where <query> --step <step> ' +
            "--reason <text> (see 'journey retry-step --help')",
        );
      if (reason.length && options.reason !== undefined)
        throw new JourneyCommandError('retry-step: give the reason once, as words or as --reason');
      const why = reason.join(' ') || options.reason || undefined;
      const identity = identityOf(operatorActions.retryStep.name, options);
      chosen(async (ctx, out) => {
        announce(out, identity.requestId);
        const result = await later.operations().retryStep(await withReadModel(ctx, out), caseId, stepKey, why, {
          ...(options.fresh ? { fresh: true } : {}),
          ...identity,
        });
        return done(`${stepKey}: attempt ${result.status.attempt} started (${result.status.workflowId})`, result);
      });
    });

  command(operatorActions.waiveStep.cli, 'accept a step as it stands (the reason is recorded)')
    .alias(operatorActions.waiveStep.name)
    .addArgument(caseIdArgument('<caseId>'))
    .addArgument(new Argument('<step>').argParser(checkedBy(stepKeySchema, '<step>')))
    .argument('<reason...>')
    .option('--request-id <id>', requestIdHelp(operatorActions.waiveStep.name))
    .option('--actor <name>', actorHelp)
    .action((caseId: string, step: string, reason: string[], options: { requestId?: string; actor?: string }) => {
      const identity = identityOf(operatorActions.waiveStep.name, options);
      chosen(async (ctx, out) => {
        announce(out, identity.requestId);
        return done(
          `${step}: waived`,
          await later.operations().waiveStep(await withReadModel(ctx, out), caseId, step, reason.join(' '), identity),
        );
      });
    });

  command(operatorActions.resolvePicklist.cli, 'resolve the credit report picklist with provider_id <id>')
    .addArgument(caseIdArgument('<caseId>'))
    .addArgument(
      new Argument('<id>', 'the provider_id of the chosen company (see status)').argParser(
        checkedBy(bureauCompanyIdSchema, '<id>'),
      ),
    )
    .option('--request-id <id>', requestIdHelp(operatorActions.resolvePicklist.name))
    .option('--actor <name>', actorHelp)
    .action((caseId: string, providerId: string, options: { requestId?: string; actor?: string }) => {
      const identity = identityOf(operatorActions.resolvePicklist.name, options);
      chosen(async (ctx, out) => {
        announce(out, identity.requestId);
        const result = await later
          .operations()
          .resolvePicklist(await withReadModel(ctx, out), caseId, providerId, identity);
        const report = (result.status.detail as { report?: { company_name?: string; provider_id?: string } } | null)
          ?.report;
        return done(
          `${journeySteps.creditReport.key} ${result.status.state}: ${report?.company_name ?? '?'} ` +
            `(${report?.provider_id ?? providerId})`,
          result,
        );
      });
    });

  command('cancel', 'cancel a running journey')
    .addArgument(caseIdArgument('<caseId>'))
    .argument('[reason...]')
    .option('--actor <name>', actorHelp)
    .action((caseId: string, reason: string[], options: { actor?: string }) =>
      chosen(async (ctx, out) => {
        const identity = identityOf(undefined, options);
        announce(out, identity.requestId);
        await later
          .operations()
          .cancelJourney(await withReadModel(ctx, out), caseId, reason.join(' ') || undefined, identity);
        return done(`cancel requested for case/${caseId}`);
      }),
    );

  command('retry', 'run a closed journey again: completed and waived steps carried over, the others re-run')
    .addArgument(caseIdArgument('<caseId>'))
    .option('--dry-run', 'show the plan, start nothing')
    .action((caseId: string, options: { dryRun?: boolean }) =>
      chosen(async (ctx) => {
        const [{ planJourneyRetry, retryJourney }, { formatRetryPlan }] = [later.retry(), later.format()];
        const withFile = await withCaseFile(ctx);
        const plan = await planJourneyRetry(withFile, caseId);
        const { input: _input, ...summary } = plan;
        if (options.dryRun)
          return done(`${formatRetryPlan(plan)}\n(dry run: nothing started)`, { ...summary, dryRun: true });
        const runId = await retryJourney(withFile, plan);
        return done(`${formatRetryPlan(plan)}\nretried case/${caseId} as run ${runId}`, { ...summary, runId });
      }),
    );

  command(evidenceRefreshAction.cli, "renew a closed case's evidence: a new run that buys only these items again")
    .addArgument(caseIdArgument('<caseId>'))
    .argument('<item...>', `the evidence to renew: ${evidenceKindNames.join(', ')}`)
    .option('--reason <text>', 'why (required; recorded in the audit trail)')
    .option('--yes', 'start the new run; without it, a dry run that shows the plan and starts nothing')
    .option('--request-id <id>', requestIdHelp(evidenceRefreshAction.name, ', kept on the run it starts'))
    .option('--actor <name>', actorHelp)
    .addHelpText(
      'after',
      `
For a closed case whose steps all completed or were waived. The steps of the items run as a new
purchase (identityVerification: every person's IDV; bankTransactions: the banking step), every other
step is carried over and bought nothing again. A step computed from a renewed one (affordability from
bankTransactions) is renewed with it unless it was waived, as the journey does when a step's
dependency runs again. A running case is refused.
  journey refresh <caseId> creditReport bankTransactions --reason 'annual review'        (the plan)
  journey refresh <caseId> creditReport bankTransactions --reason 'annual review' --yes  (renew)`,
    )
    .action(
      (
        caseId: string,
        items: string[],
        options: { reason?: string; yes?: boolean; requestId?: string; actor?: string },
      ) => {
        const request = refreshRequest(items, options.reason);
        const identity = identityOf(evidenceRefreshAction.name, options);
        chosen(async (ctx, out) => {
          const { planEvidenceRefresh, refreshEvidence } = later.refresh();
          const reads = await withCaseFile(ctx);
          if (!options.yes) {
            const { input: _input, ...plan } = await planEvidenceRefresh(reads, caseId, request);
            return done(`${formatRefreshPlan(plan)}\n(dry run: nothing started; --yes renews)`, {
              ...plan,
              dryRun: true,
            });
          }
          announce(out, identity.requestId);
          const answer = await refreshEvidence(reads, caseId, request, identity);
          return done(`${formatRefreshPlan(answer)}\nrenewed in run ${answer.runId}`, answer);
        });
      },
    );

  command('replay', "replay the journey's histories (children and resources too) against this checkout")
    .addArgument(caseIdArgument('<caseId>'))
    .action((caseId: string) =>
      chosen(async (ctx) => {
        const results = await later.replay().replayJourney(ctx, caseId, later.workflowCode());
        const diverged = results.find((r) => r.error);
        const text = diverged
          ? `${diverged.workflowId} does not replay: ${diverged.error}\n(${results.length} histories replayed)`
          : `case/${caseId} replays deterministically: ${results.length} histories ` +
            `(${results.map((r) => `${r.workflowId}: ${r.events} events`).join(', ')})`;
        return { text, json: results, failed: Boolean(diverged) };
      }),
    );

  command(
    'upload',
    "put a document in the case file; a journey input's steps.documents names it by the printed document_id",
  )
    .addArgument(caseIdArgument('<caseId>'))
    .argument('<file>')
    .addOption(
      new Option('--type <type>', "the document's kind when known").choices([
        'BankStatement',
        'Payslip',
        'SA302',
        'TaxOverview',
      ]),
    )
    .action((caseId: string, file: string, options: { type?: string }) => {
      const document = caseFileCommands().readDocumentFile(file, options.type);
      chosenLocal(async (local) => {
        const { uploadDocument, documentReference } = caseFileCommands();
        const stored = await uploadDocument(await local.caseFile(), caseId, document);
        const reference = documentReference(stored);
        return done(
          [
            `stored ${stored.file_name} (${stored.size_bytes} bytes) as document ${stored.document_id}`,
            `name it in the journey input's steps.documents: ${JSON.stringify(reference)}`,
          ].join('\n'),
          reference,
        );
      });
    });

  command('evidence', "the case file's contents by step attempt (--json: all of it, transactions included)")
    .addArgument(caseIdArgument('<caseId>'))
    .argument('[file]', 'with --export-document: where to write the document')
    .option(
      '--export-document <documentId>',
      "write a document's bytes to <file>",
      checkedBy(documentReferenceSchema.shape.document_id, '--export-document'),
    )
    .action((caseId: string, file: string | undefined, options: { exportDocument?: string }) => {
      const documentId = options.exportDocument;
      if (documentId && !file)
        throw new JourneyCommandError('evidence --export-document <documentId> needs the <file> to write it to');
      chosenLocal(async (local) => {
        const { exportDocument, formatEvidence } = caseFileCommands();
        const store = await local.caseFile();
        if (!documentId) {
          const evidence = await store.evidence(caseId);
          return done(formatEvidence(evidence), evidence);
        }
        const exported = await exportDocument(store, caseId, documentId, file as string);
        return done(`wrote ${exported.file_name} (${exported.size_bytes} bytes) to ${file}`, exported);
      });
    });

  addFunnelCommand(
    command('funnel', 'where applicants drop off: per step, reached, completed, waived, expired, time in it'),
    chosenLocal,
  );

  command('purge', "delete a closed case's data from the case file (erasure); refused while its journey runs")
    .addArgument(caseIdArgument('<caseId>'))
    .action((caseId: string) =>
      chosen(async (ctx) => {
        const deleted = await caseFileCommands().purgeCaseFile(ctx, await ctx.caseFile(), caseId);
        const rows = Object.values(deleted).reduce((a, b) => a + b, 0);
        const tables =
          Object.entries(deleted)
            .filter(([, n]) => n > 0)
            .map(([t, n]) => `${t} ${n}`)
            .join(', ') || 'nothing was there';
        return done(`purged case ${caseId} from the case file: ${rows} rows (${tables})`, deleted);
      }),
    );

  const webhooks = program
    .command('webhooks')
    .description("the provider's webhook configuration (PROVIDER_* variables)");
  webhooks
    .command('sync')
    .description(
      "create or update the provider's webhooks (one per URL: two give redundant delivery) " +
        'on every event type, and its signing secret',
    )
    .argument('<callbackUrl...>', "the bridges' public addresses, e.g. https://bridge.example.com/webhooks")
    .option('--json', 'print JSON instead of text')
    .action((callbackUrls: string[]) => {
      const provider = providerClient();
      chosenLocal(async () => {
        const result = await (require('./webhookSync') as typeof import('./webhookSync')).syncWebhooks(provider, {
          callbackUrls,
        });
        const lines = result.webhooks.map(
          (w) => `${w.action.padEnd(8)} ${w.name} → ${w.callback_url} (${w.webhook_id})`,
        );
        lines.push(
          `${result.eventTypes.length} event types each; signing secret ${result.secret.action} ` +
            `(updated ${result.secret.date_updated}; give it to the bridges as WEBHOOK_SECRET, ` +
            `or set WEBHOOK_SECRET_SOURCE=provider)`,
        );
        return done(lines.join('\n'), result);
      });
    });

  return program;
}

/** The context with the case file, whose read model every read of a case comes from. */
async function withCaseFile(ctx: JourneyClientContext & CaseFileAccess): Promise<JourneyReadContext> {
  return { ...ctx, readModel: await ctx.caseFile() };
}

/**
 * The context with the case file, so that operator actions are audited there. Without a case file
 * (none configured and no stack running here) an action still acts, unaudited; a configured one
 * (DATABASE_URL) that cannot be opened is said on stderr.
 */
async function withReadModel(ctx: JourneyClientContext & CaseFileAccess, out: Output): Promise<JourneyClientContext> {
  try {
    return { ...ctx, readModel: await ctx.caseFile() };
  } catch (error) {
    if (process.env.DATABASE_URL)
      out.progress?.(`${(error as Error).message.split('\n')[0]}: the action is not audited`);
    return ctx;
  }
}

/**
 * A parser of an id argument or option, checked with its schema as commander reads it, before
 * anything connects: a usage error (exit 2) naming it, its limit and the fix.
 */
function checkedBy(schema: z.ZodType<string>, name: string): (value: string) => string {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new JourneyCommandError(`${name} ${parsed.error.issues[0]!.message}`);
    return parsed.data;
  };
}

const caseIdArgument = (name: '<caseId>' | '[caseId]', description?: string) =>
  new Argument(name, description).argParser(checkedBy(caseIdSchema, name));

const actorHelp = "who acts, recorded in the case's audit trail (default: $USER)";
const actorOf = (options: { actor?: string }) =>
  options.actor ?? (require('../client/operatorAudit') as typeof import('../client/operatorAudit')).defaultActor();

interface RetryStepOptions {
  actor?: string;
  fresh?: boolean;
  requestId?: string;
  where?: string;
  step?: string;
  reason?: string;
  yes?: boolean;
  concurrency?: string;
}

const requestIdHelp = (action: OperatorAction, more = '') =>
  `makes the command safe to repeat: the Update id is ${action}/<id>${more}; a repeat ` +
  `with the same id answers the first result and acts once (1 to 200 printable ASCII ` +
  `characters). The action is audited under ${action}/<id>, or without it under a ` +
  `new id; either is printed on stderr`;

/**
 * The action's identity (client/operatorIdentity.ts), `--request-id` checked now: who acts
 * (`--actor`, default $USER), the Update id the request id makes and the id the action is audited
 * under, or without a request id a new id to audit it under.
 */
function identityOf(
  action: OperatorAction | undefined,
  options: { actor?: string; requestId?: string },
): OperatorIdentity {
  const parsed = options.requestId === undefined ? undefined : operatorRequestIdSchema.safeParse(options.requestId);
  if (parsed && !parsed.success) throw new JourneyCommandError(`--request-id ${parsed.error.issues[0]!.message}`);
  return operatorIdentity(actorOf(options), { action, callerRequestId: parsed?.data });
}

/**
 * The id the audit trail records the action under, on stderr before it runs (so also when it is
 * refused, or not answered).
 */
const announce = (out: Output, requestId: string) =>
  (out.progress ?? ((line: string) => console.error(line)))(`request id ${requestId}`);

/** The refresh's items and reason, checked with the schema the case API uses; a problem is a usage error naming it. */
function refreshRequest(items: string[], reason: string | undefined): EvidenceRefreshRequest {
  if (reason === undefined) throw new JourneyCommandError('refresh needs --reason <text>: why the evidence is renewed');
  const parsed = evidenceRefreshRequestSchema.safeParse({ items, reason });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new JourneyCommandError(`refresh: ${issue.path[0] === 'reason' ? '--reason ' : ''}${issue.message}`);
}

/** A refresh's plan, a line per step: renewed (with the need it buys, and why when not named) or carried over. */
function formatRefreshPlan(plan: Omit<EvidenceRefreshPlan, 'input'>): string {
  const lines = [`case/${plan.caseId}:`];
  for (const { step, kind, need, because } of plan.renewed)
    lines.push(`  renew       ${step} (${kind}, need ${need}${because ? `; ${because}` : ''})`);
  for (const step of plan.carriedOver) lines.push(`  carry over  ${step}`);
  return lines.join('\n');
}

/** The bulk form's flags, checked with the schema the case API uses too; problems named by their flags. */
function bulkRequest(caseId: string | undefined, options: RetryStepOptions): BulkStepRetryRequest {
  if (caseId !== undefined)
    throw new JourneyCommandError(
      'retry-step takes either <caseId> <step> or --where (with --step and --reason), not both',
    );
  const concurrency = options.concurrency === undefined ? undefined : Number(options.concurrency);
  const parsed = bulkStepRetryRequestSchema.safeParse({
    where: options.where,
    step: options.step,
    reason: options.reason,
    fresh: options.fresh || undefined,
    requestId: options.requestId,
    concurrency,
  });
  if (!parsed.success) {
    const flags: Record<string, string> = { requestId: 'request-id' };
    throw new JourneyCommandError(
      `retry-step --where: ${describeIssues(parsed.error)
        .map((p) => `--${p.replace(/^(\w+):/, (_m, name: string) => `${flags[name] ?? name}:`)}`)
        .join('; ')}`,
    );
  }
  return parsed.data;
}

/** The bulk retry: a dry run listing the cases, or (--yes) the retries with progress on stderr and a summary. */
async function bulkRetryStep(
  ctx: JourneyClientContext,
  out: Output,
  request: BulkStepRetryRequest & { actor: string },
  yes: boolean,
): Promise<Outcome> {
  const [{ planBulkStepRetry, runBulkStepRetry }, { formatBulkPlan, formatBulkSummary }] = [
    later.bulkRetry(),
    later.format(),
  ];
  const progress = out.progress ?? ((line: string) => console.error(line));
  const plan = await planBulkStepRetry(ctx, request, { readStepStates: !yes });
  if (!yes) return done(formatBulkPlan(plan, request), { dryRun: true, ...plan });
  progress(
    `request id ${plan.requestId}: re-run with --request-id ${plan.requestId} to ` +
      `resume (accepted cases answer their first result)`,
  );
  const summary = await runBulkStepRetry(ctx, plan, request, (n, total, o) => {
    const detail = o.outcome === 'accepted' ? ` (attempt ${o.attempt})` : `: ${o.message}`;
    progress(`${n}/${total} case ${o.caseId} ${o.outcome}${detail}`);
  });
  return {
    text: formatBulkSummary(summary),
    json: { dryRun: false, query: plan.query, ...summary },
    failed: summary.refused.length + summary.failed.length > 0,
  };
}

const caseFileCommands = () => require('./caseFileCommands') as typeof import('./caseFileCommands');

function providerClient() {
  const { ProviderClient } = require('../activities/providerClient') as typeof import('../activities/providerClient');
  const { readProviderConfig } =
    require('../activities/providerConfig') as typeof import('../activities/providerConfig');
  return new ProviderClient(readProviderConfig());
}
