/** How the console writes times, ages and step names: one place, escaped. */
import { escapeHtml } from '../escapeHtml';

/** A time as UTC to the minute, the exact instant in `datetime` and the tooltip. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return `<time datetime="${escapeHtml(iso)}" title="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
}

/** How long ago, coarsely: "5 min", "3 h 10 min", "2 d 4 h". */
export function age(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '';
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/**
 * The names of OIDC operators by the identity audits and assignments record (`<iss>#<sub>`;
 * case-file/consoleOperators.ts). An API key's name is shown as it is.
 */
export type OperatorNames = ReadonlyMap<string, string>;

/** An operator as the console shows them: by name, their recorded identity in the tooltip. */
export function operatorLabel(identity: string, operators: OperatorNames | undefined): string {
  const name = operators?.get(identity);
  return name ? `<span title="${escapeHtml(identity)}">${escapeHtml(name)}</span>` : escapeHtml(identity);
}

/** People's names by person id, for step keys `identity-verification/<personId>`. */
export type Names = ReadonlyMap<string, string>;

/** A step as an operator reads it: IDV steps by the person's name, the key (with its UUID) small beside it. */
export function stepLabel(key: string, names: Names): string {
  const [kind, personId] = key.split('/');
  const name = personId ? names.get(personId) : undefined;
  if (!name) return `<code>${escapeHtml(key)}</code>`;
  return (
    `${escapeHtml((kind ?? key).replace(/-/g, ' '))} · <strong>${escapeHtml(name)}</strong> ` +
    `<code class="muted">${escapeHtml(personId!.slice(0, 8))}…</code>`
  );
}
