/**
 * A real OpenID Connect provider (oidc-provider, ESM-only, so a process of its own: jest runs the
 * tests as CommonJS) for the console's OIDC sign-in test. Its development login form takes an
 * account's login (any password) and asks for consent; each account's ID token carries its name
 * and roles. Configured by OIDC_TEST_CLIENT (JSON: client_id, client_secret, redirect_uri) and
 * OIDC_TEST_ACCOUNTS (JSON: login → { name, roles }); prints one JSON line with the issuer when it
 * listens on 127.0.0.1 (a free port).
 */
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const client = JSON.parse(process.env.OIDC_TEST_CLIENT ?? '{}');
const accounts = JSON.parse(process.env.OIDC_TEST_ACCOUNTS ?? '{}');

const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: [client.redirect_uri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  claims: { openid: ['sub'], profile: ['name', 'roles'] },
  // The ID token carries the scope's claims (name, roles), not only the userinfo endpoint.
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['oidc-test-provider-cookie-key-0123456789'] },
  findAccount: (_ctx, id) => {
    const account = accounts[id];
    return account
      ? { accountId: id, claims: () => ({ sub: id, name: account.name, roles: account.roles }) }
      : undefined;
  },
});
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
