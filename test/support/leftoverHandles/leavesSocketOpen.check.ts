/** Run by test/unit/leftoverHandles.test.ts: a file that reads an answer's status, not its body, and ends. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

test("reads a large answer's status only", async () => {
  const server = http.createServer((_req, res) => res.end('x'.repeat(1 << 20)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  expect(answer.status).toBe(200);
  await new Promise((resolve) => server.close(resolve));
});
