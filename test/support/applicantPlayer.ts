/**
 * Plays the applicant of a whole journey against the simulator, for the suites that lose the
 * provider's answers (test/workflows/boughtOnce.test.ts, lostResponses.test.ts): completes their
 * IDV request and every bank connection the provider made for the case, until the journey settles.
 * When it does not settle in time, the failure says where each unsettled step stands in Temporal.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { waitForStatus } from '../../cli/watchStatus';
import { journeyStatusQuery, type JourneyStatus } from '../../client/journeyMessages';
import { whereItStands } from './whereItStands';

type Control = (path: string, body?: unknown, method?: string) => Promise<Record<string, unknown>>;

export interface PlayedApplicant {
  caseId: string;
  personId: string;
}

/** Nothing runs or waits: every step completed or waits for an operator. */
export const settled = (s: JourneyStatus) =>
  Object.values(s.steps).every((step) => !['pending', 'running', 'waiting'].includes(step.state));

export async function playApplicant(
  control: Control,
  client: Client,
  a: PlayedApplicant,
  handle: WorkflowHandle,
  budgetMs = 240_000,
): Promise<JourneyStatus> {
  const idv = `identity-verification/${a.personId}`;
  const done = new Set<string>();
  const act = async (s: JourneyStatus) => {
    const request = s.steps[idv]?.providerIds.request_id;
    if (s.steps[idv]?.state === 'waiting' && request && !done.has(request)) {
      done.add(request);
      await control(`/identity-verifications/${request}/complete`, { verification_status: 'Approved' });
    }
    // Every connection the provider made for the case: the link reached the applicant one way or another.
    if (s.steps.banking && !['completed', 'failed'].includes(s.steps.banking.state)) {
      const made = (await control(`/ledger?case_id=${a.caseId}`)).openBankingConnections as {
        bank_connection_id: string;
        status: string;
      }[];
      for (const c of made.filter((c) => c.status === 'Pending' && !done.has(c.bank_connection_id))) {
        done.add(c.bank_connection_id);
        await control(`/open-banking-connections/${c.bank_connection_id}/complete`, {
          status: 'Connected',
          accounts: 1,
        });
      }
    }
  };
  let acting: Promise<void> | undefined;
  let last: JourneyStatus | undefined;
  try {
    return await waitForStatus(
      handle,
      journeyStatusQuery,
      (s) => {
        last = s;
        acting ??= act(s).finally(() => (acting = undefined));
        return settled(s);
      },
      budgetMs,
    );
  } catch (error) {
    const stands = await whereItStands(client, handle.workflowId, last);
    // Also on stderr: a suite environment that fails a file for leftover handles can hide the error.
    process.stderr.write(`${handle.workflowId} did not settle; where it stands:\n${stands}\n`);
    throw new Error(`${String(error)}\nwhere it stands: ${stands}`, { cause: error });
  }
}
