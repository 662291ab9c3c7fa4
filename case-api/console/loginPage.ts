/** The console's sign-in form: an operator API key, exchanged for a session cookie. */
import { escapeHtml } from '../escapeHtml';

export function loginBody(error?: string): string {
  return `<h1>Sign in</h1>${error ? `<div class="box error" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="/console/login" class="box"><label>Operator API key <input type="password" name="key" autocomplete="off" required></label> <button>Sign in</button></form>
<p class="muted">Keys with the operator role only; the key names you, and what you do is recorded under that name. The session lasts 8 hours.</p>`;
}
