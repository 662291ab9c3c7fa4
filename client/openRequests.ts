/**
 * The identity verification requests a step's attempts sent that the applicant may still complete:
 * each attempt's `request_id` unless that attempt found its need spent, and the request an attempt
 * sent itself when an earlier link settled it (`sent_request_id`); never one that some attempt
 * found spent (declined, expired), whichever attempt sent it. Shared by the journey (a step's next
 * attempt) and `journey retry` (the new run's first attempt).
 */
export interface AttemptIds {
  providerIds: Record<string, string>;
  needSpent?: boolean;
}

export function openRequestsOf(attempts: readonly AttemptIds[], carried: readonly string[] = []): string[] {
  const spent = new Set(
    attempts.filter((a) => a.needSpent && a.providerIds.request_id).map((a) => a.providerIds.request_id as string),
  );
  const sent = attempts.flatMap((a) => [
    a.needSpent ? undefined : a.providerIds.request_id,
    a.providerIds.sent_request_id,
  ]);
  const open = [...carried, ...sent].filter((id): id is string => id !== undefined && !spent.has(id));
  return [...new Set(open)];
}
