/**
 * The applicants of many journeys at once, played from the simulator's side: every `intervalMs`
 * one read of the simulator's ledger (`GET /_control/ledger`), and each identity check or bank
 * connection still pending is completed as the demo applicant does (approved; two accounts). One
 * request per interval for all journeys, so the worker is not queried at all and the simulator
 * only lightly: the applicant acts within an interval of the journey asking.
 */
import { completeIdentityCheck, connectBank } from '../../cli/demoJourney';

interface Ledger {
  identityVerifications: { request_id: string; status: string }[];
  openBankingConnections: { bank_connection_id: string; status: string }[];
}

export interface ApplicantPlayer {
  /** Rejects when the applicant could not act (the journeys would wait forever); resolves once stopped. */
  running: Promise<void>;
  /** Identity checks completed and banks connected so far. */
  acted(): number;
  stop(): Promise<void>;
}

export function playApplicants(control: string, intervalMs = 200): ApplicantPlayer {
  const done = new Set<string>();
  let stopped = false;
  let failure: unknown;
  const act = (id: string, action: () => Promise<void>): Promise<void> | undefined => {
    if (done.has(id)) return undefined;
    done.add(id);
    return action().catch((error: unknown) => {
      failure ??= error;
    });
  };
  const loop = (async () => {
    while (!stopped) {
      const ledger = (await (await fetch(`${control}/ledger`)).json()) as Ledger;
      const actions = [
        ...ledger.identityVerifications
          .filter((r) => r.status === 'Pending')
          .map((r) => act(r.request_id, () => completeIdentityCheck(control, r.request_id))),
        ...ledger.openBankingConnections
          .filter((c) => c.status === 'Pending')
          .map((c) => act(c.bank_connection_id, () => connectBank(control, c.bank_connection_id))),
      ];
      await Promise.all(actions);
      if (failure) throw failure;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    running: loop,
    acted: () => done.size,
    async stop() {
      stopped = true;
      await loop.catch(() => undefined);
    },
  };
}
