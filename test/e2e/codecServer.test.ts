/**
 * The codec server over real HTTP, called as the Temporal Web UI calls it (CORS preflight, then a
 * POST with Content-Type and X-Namespace from the UI's origin) and as the CLI calls it (bearer
 * token in Authorization).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { startDevServer } from '../../cli/devServer';
import { freePort } from '../../cli/freePort';
import { resolveTemporalCli } from '../../cli/temporalCli';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { generatePayloadKey } from '../../codec/payloadKeys';
import { generateCodecServerToken, uiOrigins } from '../../codec/codecServerConfig';
import { payloadToJson, type PayloadJson } from '../../codec/payloadJson';
import { startCodecServer, type RunningCodecServer } from '../../codec/startCodecServer';
import { testDirectory } from '../setup/testEnvironment';

const key = generatePayloadKey('codec-server-test');
const token = generateCodecServerToken();
const codec = new EncryptionCodec([key]);
const UI = 'http://localhost:8233';
let server: RunningCodecServer;

beforeAll(async () => {
  server = await startCodecServer({ port: 0, token, allowedOrigins: uiOrigins(8233), maxBodyBytes: 64 * 1024 }, [key]);
});

afterAll(async () => {
  await server?.stop();
});

const value = { company_name: 'Acme Widgets Ltd', first_name: 'Wilhelmina' };
const encryptedJson = async (): Promise<PayloadJson> =>
  payloadToJson((await codec.encode([defaultPayloadConverter.toPayload(value)]))[0]!);
const decodedValue = (json: PayloadJson) =>
  defaultPayloadConverter.fromPayload({
    metadata: Object.fromEntries(Object.entries(json.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
    data: Buffer.from(json.data ?? '', 'base64'),
  } as Payload);

/** What the Web UI sends: its origin, JSON, the namespace header, and a token when it has one. */
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { origin: UI, 'content-type': 'application/json', 'x-namespace': 'default', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const bearer = { authorization: `Bearer ${token}` };

test('the CORS preflight from the Web UI is answered without a token', async () => {
  const response = await fetch(`${server.url}/decode`, {
    method: 'OPTIONS',
    headers: {
      origin: UI,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-namespace,authorization',
    },
  });
  expect(response.status).toBe(204);
  expect(response.headers.get('access-control-allow-origin')).toBe(UI);
  expect(response.headers.get('access-control-allow-headers')).toBe('content-type, x-namespace, authorization');
  expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  // The token is never a cookie: nothing for a browser to send with credentials.
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
});

test('a preflight from another origin is refused and gets no CORS headers', async () => {
  const response = await fetch(`${server.url}/decode`, {
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  expect(response.status).toBe(403);
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
});

test('/decode with the bearer token answers the decoded payloads, readable by the UI', async () => {
  const response = await post('/decode', { payloads: [await encryptedJson()] }, bearer);
  expect(response.status).toBe(200);
  expect(response.headers.get('access-control-allow-origin')).toBe(UI);
  const { payloads } = (await response.json()) as { payloads: PayloadJson[] };
  expect(payloads).toHaveLength(1);
  expect(Buffer.from(payloads[0]!.metadata!.encoding!, 'base64').toString()).toBe('json/plain');
  expect(decodedValue(payloads[0]!)).toEqual(value);
});

test('the kept token in the path is refused: it is a bearer token only', async () => {
  const response = await post(`/${token}/decode`, { payloads: [await encryptedJson()] });
  expect(response.status).toBe(401);
  expect(await response.text()).not.toContain(token);
});

test.each([
  ['no token', '/decode', {}],
  ['a wrong bearer token', '/decode', { authorization: `Bearer ${generateCodecServerToken()}` }],
  ['a wrong path token', `/${generateCodecServerToken()}/decode`, {}],
  ['a token in another scheme', '/decode', { authorization: `Basic ${token}` }],
])('%s is refused with 401, and the UI can still read the status', async (_name, path, headers) => {
  const response = await post(path, { payloads: [await encryptedJson()] }, headers);
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(response.headers.get('access-control-allow-origin')).toBe(UI);
  expect(await response.text()).not.toContain('Acme');
});

test('/encode then /decode round-trips, as the CLI does it (no origin)', async () => {
  const plain = payloadToJson(defaultPayloadConverter.toPayload(value));
  const encoded = await fetch(`${server.url}/encode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer },
    body: JSON.stringify({ payloads: [plain] }),
  });
  expect(encoded.status).toBe(200);
  const encodedBody = (await encoded.json()) as { payloads: PayloadJson[] };
  expect(Buffer.from(encodedBody.payloads[0]!.metadata!.encoding!, 'base64').toString()).toBe('binary/encrypted');
  expect(Buffer.from(encodedBody.payloads[0]!.data!, 'base64').toString('latin1')).not.toContain('Acme');
  const decoded = await post('/decode', encodedBody, bearer);
  expect(decodedValue(((await decoded.json()) as { payloads: PayloadJson[] }).payloads[0]!)).toEqual(value);
});

test('plain payloads pass through /decode unchanged', async () => {
  const plain = payloadToJson(defaultPayloadConverter.toPayload(value));
  const response = await post('/decode', { payloads: [plain] }, bearer);
  expect(await response.json()).toEqual({ payloads: [plain] });
});

test('a payload under an unknown key is answered 422 naming the key id', async () => {
  const [foreign] = await new EncryptionCodec([generatePayloadKey('retired-2025')]).encode([
    defaultPayloadConverter.toPayload(value),
  ]);
  const response = await post('/decode', { payloads: [payloadToJson(foreign!)] }, bearer);
  expect(response.status).toBe(422);
  expect(((await response.json()) as { error: string }).error).toMatch(/key id "retired-2025"/);
});

test("proto3 JSON defaults: {} is an empty payload list (the CLI's query without arguments), absent or null fields are empty", async () => {
  for (const action of ['/encode', '/decode']) {
    const empty = await post(action, {}, bearer);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ payloads: [] });
  }
  expect(await (await post('/decode', { payloads: null }, bearer)).json()).toEqual({ payloads: [] });
  const bare = await post('/decode', { payloads: [{}, { metadata: null, data: null }] }, bearer);
  expect(bare.status).toBe(200);
  expect(await bare.json()).toEqual({ payloads: [{ metadata: {} }, { metadata: {} }] });
});

test('bodies are validated and bounded', async () => {
  expect((await post('/decode', { payloads: [{ data: 'not base64!' }] }, bearer)).status).toBe(400);
  expect((await post('/decode', { nothing: true }, bearer)).status).toBe(400);
  expect((await post('/decode', '{"payloads": [', bearer)).status).toBe(400);
  expect(
    (await post('/decode', { payloads: [{ data: Buffer.alloc(80 * 1024).toString('base64') }] }, bearer)).status,
  ).toBe(413);
  expect((await post('/compress', { payloads: [] }, bearer)).status).toBe(404);
});

test("the dev server's Web UI is pointed at the codec server, and its call as configured there is accepted", async () => {
  const uiPort = await freePort();
  const uiToken = generateCodecServerToken();
  const forUi = await startCodecServer(
    { port: 0, token, uiToken, allowedOrigins: uiOrigins(uiPort), maxBodyBytes: 64 * 1024 },
    [key],
  );
  const devServer = await startDevServer({
    cliPath: await resolveTemporalCli(),
    uiPort,
    codecEndpoint: forUi.uiEndpoint,
    logFile: path.join(testDirectory('codec-ui'), 'server.log'),
  });
  try {
    // The dev server's command line (readable by every local user in ps) holds no token: not the
    // kept one, nor the UI's, which reaches the server through a private environment file.
    const commandLine = readFileSync(`/proc/${devServer.pid}/cmdline`, 'utf8');
    expect(commandLine).not.toContain(token);
    expect(commandLine).not.toContain(uiToken);
    expect(commandLine).not.toContain('--ui-codec-endpoint');
    // The UI's token is good in the path only, never as a bearer token.
    const asBearer = await fetch(`${forUi.url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${uiToken}` },
      body: '{}',
    });
    expect(asBearer.status).toBe(401);
    expect(forUi.uiEndpoint).toBe(`${forUi.url}/${uiToken}`);
    const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as {
      Auth: { Enabled: boolean };
      Codec: { Endpoint: string; PassAccessToken: boolean };
    };
    // No login in the dev server's UI, so no access token it could pass: the token rides in the endpoint.
    expect(settings.Auth.Enabled).toBe(false);
    expect(settings.Codec).toMatchObject({ Endpoint: forUi.uiEndpoint, PassAccessToken: false });
    const response = await fetch(`${settings.Codec.Endpoint}/decode`, {
      method: 'POST',
      headers: { origin: `http://127.0.0.1:${uiPort}`, 'content-type': 'application/json', 'x-namespace': 'default' },
      body: JSON.stringify({ payloads: [await encryptedJson()] }),
    });
    expect(response.status).toBe(200);
    expect(decodedValue(((await response.json()) as { payloads: PayloadJson[] }).payloads[0]!)).toEqual(value);
  } finally {
    await devServer.stop();
    await forUi.stop();
  }
});
