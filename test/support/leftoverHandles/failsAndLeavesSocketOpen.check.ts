/** Run by test/unit/leftoverHandles.test.ts: a test that fails while a call it started is still open. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

test('fails with a request of its own still open', async () => {
  const server = http.createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  void fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`).catch(() => undefined);
  expect('the answer the test wanted').toBe('a different answer');
});
