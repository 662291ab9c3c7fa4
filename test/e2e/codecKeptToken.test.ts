/**
 * The codec server's kept token (CODEC_SERVER_TOKEN or `.data/codec-server-token`) is a bearer
 * token only: a URL ends up in logs, browser history and proxies, so in the path it is refused,
 * and the answer says nothing of it. Only the Web UI's token, made for one `npm start`, rides in
 * the path.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { generatePayloadKey } from '../../codec/payloadKeys';
import { generateCodecServerToken, uiOrigins } from '../../codec/codecServerConfig';
import { payloadToJson } from '../../codec/payloadJson';
import { startCodecServer, type RunningCodecServer } from '../../codec/startCodecServer';

const key = generatePayloadKey('codec-kept-token-test');
const token = generateCodecServerToken();
const uiToken = generateCodecServerToken();
const servers: RunningCodecServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function started(withUiToken: boolean): Promise<RunningCodecServer> {
  const server = await startCodecServer(
    {
      port: 0,
      token,
      uiToken: withUiToken ? uiToken : undefined,
      allowedOrigins: uiOrigins(8233),
      maxBodyBytes: 64 * 1024,
    },
    [key],
  );
  servers.push(server);
  return server;
}

const decode = async (url: string, headers: Record<string, string> = {}) => {
  const [payload] = await new EncryptionCodec([key]).encode([defaultPayloadConverter.toPayload({ a: 1 })]);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ payloads: [payloadToJson(payload!)] }),
  });
};

test.each([
  ['with a Web UI token', true],
  ['without one', false],
])('the kept token in the path is refused (%s), and the answer does not echo it', async (_name, withUiToken) => {
  const server = await started(withUiToken);
  const response = await decode(`${server.url}/${token}/decode`);
  expect(response.status).toBe(401);
  const text = await response.text();
  expect(text).not.toContain(token);
  expect(text).not.toMatch(/path/i);
  // In the Authorization header it is accepted; the UI token in the path still is too.
  expect((await decode(`${server.url}/decode`, { authorization: `Bearer ${token}` })).status).toBe(200);
  if (withUiToken) expect((await decode(`${server.url}/${uiToken}/decode`)).status).toBe(200);
});

test('a server with no Web UI token offers no endpoint with a token in its path', async () => {
  expect((await started(false)).uiEndpoint).toBeUndefined();
  expect((await started(true)).uiEndpoint).toMatch(new RegExp(`/${uiToken}$`));
});
