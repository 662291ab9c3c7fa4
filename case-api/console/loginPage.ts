/**
 * The console's sign-in: an operator API key exchanged for a session cookie, or, with OpenID
 * Connect configured, the identity provider.
 */
import { escapeHtml } from '../escapeHtml';
import type { OidcConfig } from './oidcConfig';

export function loginBody(error?: string, oidc?: OidcConfig): string {
  const problem = error ? `<div class="box error" role="alert">${escapeHtml(error)}</div>` : '';
  if (oidc) {
    return (
      `<h1>Sign in</h1>${problem}\n` +
      '<p class="box"><a id="oidc-sign-in" href="/console/oidc/start">' +
      `Sign in at ${escapeHtml(new URL(oidc.issuer).host)}</a></p>\n` +
      `<p class="muted">Your organisation's identity provider names you; what you do is recorded under that name, ` +
      'and your roles there decide what you may do. The session lasts 8 hours.</p>'
    );
  }
  return (
    `<h1>Sign in</h1>${problem}\n` +
    '<form method="post" action="/console/login" class="box"><label>Operator name ' +
    '<input type="text" name="name" autocomplete="username" maxlength="64"></label> <label>Operator API key ' +
    '<input type="password" name="key" autocomplete="off" required></label> <button>Sign in</button></form>\n' +
    '<p class="muted">Keys with the operator role only; the key names you, and what you do is recorded under that ' +
    "name. Give the key's name too: failed sign-ins from this address then do not hold you up. The session " +
    'lasts 8 hours.</p>'
  );
}
