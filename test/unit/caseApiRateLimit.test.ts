/** The case API's middleware without Temporal: rate limit, security headers, the public document. */
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createCaseApiApp } from '../../case-api/app';
import { CaseGateway } from '../../case-api/caseGateway';

test('beyond the rate limit the API answers 429 with JSON; answers carry helmet headers', async () => {
  // A lazy connection to nowhere: these routes never reach Temporal.
  const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
  const app = createCaseApiApp(
    { port: 0, keys: [], maxBodyBytes: 1024, rateLimitPerMinute: 3, sessionSecret: 'x'.repeat(32) },
    new CaseGateway(client, 'q'),
    pino({ level: 'silent' }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await fetch(url);
      statuses.push(answer.status);
      // An unread body (the document is larger than a socket's buffer) holds its socket open.
      await answer.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await fetch(url);
    expect(await limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(limited.headers.get('ratelimit-policy')).toContain('3');
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
    expect(limited.headers.get('content-security-policy')).toContain("default-src 'self'");
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await client.connection.close();
  }
});
