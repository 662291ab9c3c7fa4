/**
 * `npm run applicant -- <command>`: plays the applicant against the simulator's control API
 * (docs/simulator.md): complete an IDV with a verification status, let it expire, connect or
 * reject a bank. SIMULATOR_CONTROL_URL, else the local simulator on SIMULATOR_PORT (8480).
 * Exit codes: 0 done; 1 the simulator refused or could not be reached; 2 usage error.
 */
import { Command, CommanderError, Option } from 'commander';
import { z } from 'zod';
import { idvCompletedVerificationStatusSchema } from '../provider';
import { parseEnvironment, portVariable, httpUrlVariable } from '../config/environment';
import { exitOnConfigurationError } from '../config/exitOnConfigurationError';

type Call = { path: string; body: unknown; done: string };

function program(chosen: (call: Call) => void): Command {
  const root = new Command('applicant')
    .description('Play the applicant against the provider simulator')
    .exitOverride()
    .showHelpAfterError();
  root
    .command('complete-idv')
    .description('the applicant completes an IDV request; the provider decides its verification status')
    .argument('<requestId>', 'the request_id (journey status shows it)')
    .addOption(
      new Option('--status <status>', 'verification status')
        .choices(idvCompletedVerificationStatusSchema.options)
        .default('Approved'),
    )
    .action((requestId: string, o: { status: string }) =>
      chosen({
        path: `/identity-verifications/${encodeURIComponent(requestId)}/complete`,
        body: { verification_status: o.status },
        done: `IDV ${requestId}: completed, ${o.status}`,
      }),
    );
  root
    .command('expire-idv')
    .description('the applicant never opens the link: the IDV request expires')
    .argument('<requestId>')
    .action((requestId: string) =>
      chosen({
        path: `/identity-verifications/${encodeURIComponent(requestId)}/expire`,
        body: {},
        done: `IDV ${requestId}: expired`,
      }),
    );
  root
    .command('connect-bank')
    .description('the applicant connects their bank on an open banking connection')
    .argument('<connectionId>', 'the bank_connection_id (journey status shows it)')
    .addOption(
      new Option('--accounts <n>', 'accounts connected (1-5)')
        .default('1')
        .argParser((v) => String(z.coerce.number().int().min(1).max(5).parse(v))),
    )
    .action((id: string, o: { accounts: string }) =>
      chosen({
        path: `/open-banking-connections/${encodeURIComponent(id)}/complete`,
        body: { status: 'Connected', accounts: Number(o.accounts) },
        done: `bank connection ${id}: connected, ${o.accounts} account(s)`,
      }),
    );
  root
    .command('reject-bank')
    .description('the applicant refuses the open banking connection')
    .argument('<connectionId>')
    .action((id: string) =>
      chosen({
        path: `/open-banking-connections/${encodeURIComponent(id)}/complete`,
        body: { status: 'Rejected' },
        done: `bank connection ${id}: rejected`,
      }),
    );
  return root;
}

function controlUrl(): string {
  const env = parseEnvironment({
    SIMULATOR_CONTROL_URL: httpUrlVariable.optional(),
    SIMULATOR_PORT: portVariable.default(8480),
  });
  return env.SIMULATOR_CONTROL_URL ?? `http://127.0.0.1:${env.SIMULATOR_PORT}/_control`;
}

async function main(): Promise<void> {
  let call: Call | undefined;
  try {
    program((c) => (call = c)).parse(process.argv.slice(2), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    throw error;
  }
  if (!call) process.exit(2);
  const base = controlUrl();
  const response = await fetch(`${base}${call.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
  }).catch((error: Error) => {
    console.error(
      `cannot reach the simulator at ${base}: ${error.message} (is the stack running? set SIMULATOR_CONTROL_URL)`,
    );
    process.exit(1);
  });
  const body = (await response.json().catch(() => ({}))) as { message?: string; deliveries?: unknown[] };
  if (!response.ok) {
    console.error(`the simulator refused (${response.status}): ${body.message ?? 'no message'}`);
    process.exit(1);
  }
  console.log(`${call.done}${body.deliveries ? ` (${body.deliveries.length} webhook deliveries)` : ''}`);
}

main().catch(exitOnConfigurationError);
