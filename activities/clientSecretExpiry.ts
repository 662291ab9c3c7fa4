/**
 * Client secrets expire (two years by default, spec §5.5). When the expiry date is configured, a
 * process warns as it nears, so the rotation (create the second secret, switch, revoke) happens
 * before an outage. The message names the variable, never the secret.
 */
export const SECRET_EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export function clientSecretExpiryWarning(
  expiresAt: Date | undefined,
  now: Date,
  warnDays = SECRET_EXPIRY_WARNING_DAYS,
): string | undefined {
  if (!expiresAt) return undefined;
  const daysLeft = Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft > warnDays) return undefined;
  const when = expiresAt.toISOString().slice(0, 10);
  if (daysLeft < 0)
    return `PROVIDER_CLIENT_SECRET expired on ${when}: create a new secret, set it, and revoke the old one`;
  return (
    `PROVIDER_CLIENT_SECRET expires on ${when} (in ${daysLeft} days): create the second ` +
    `secret and set PROVIDER_CLIENT_SECRET_SECONDARY before then`
  );
}
