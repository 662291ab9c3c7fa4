/**
 * docs/integration.md's walk-through, "A first case, from nothing", run from its own text against a
 * running stack: each ```http request block is sent as written (the documented origins pointed at
 * this stack's, `$LOS_KEY` and `$OPERATOR_KEY` its keys, `$CASE_ID` and `$PERSON_ID` the ids the
 * provider answered earlier in the walk), and the answer must be the one the next ```http block
 * shows: the same status, and every field shown, with the same value where it holds no digit (a
 * state, a code, a message without ids) and the same type where it does (an id, a time). A read
 * is repeated until it answers as shown, since the journey writes its state a moment after it starts.
 * WALKTHROUGH_PRINT=1 prints each real answer, to paste into the doc after a change.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from '../../cli/stack';
import { projectRoot } from '../../config/projectRoot';
import { testDirectory, testTemporalConfig, testWorkflowBundle, testCaseFileOption } from '../setup/testEnvironment';

interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  answer: { status: number; body: unknown };
}

const section = '## A first case, from nothing';

/** The walk-through's request and answer blocks, in order. */
function walkthrough(): Exchange[] {
  const doc = readFileSync(path.join(projectRoot, 'docs', 'integration.md'), 'utf8');
  const start = doc.indexOf(section);
  const end = doc.indexOf('\n## ', start + section.length);
  const blocks = [...doc.slice(start, end === -1 ? undefined : end).matchAll(/```http\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
  const exchanges: Exchange[] = [];
  for (let i = 0; i < blocks.length; i += 2) {
    const [request, answer] = [message(blocks[i]!), message(blocks[i + 1] ?? '')];
    const [method, url] = request.start.split(' ');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer.start)?.[1]);
    if (!method || !url || !status) throw new Error(`not a request and its answer:\n${blocks[i]}\n${blocks[i + 1]}`);
    exchanges.push({
      request: { method, url, headers: request.headers, body: request.body },
      answer: { status, body: answer.body ? JSON.parse(answer.body) : null },
    });
  }
  return exchanges;
}

/** An HTTP message as written: its start line, headers, and body after the blank line. */
function message(text: string) {
  const [head = '', ...rest] = text.split('\n\n');
  const [start = '', ...headerLines] = head.split('\n');
  const headers = Object.fromEntries(
    headerLines
      .filter((line) => line.trim())
      .map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { start: start.trim(), headers, body: rest.join('\n\n').trim() };
}

/** Where the answer differs from what the doc shows (empty: it is as shown). */
function differences(shown: unknown, got: unknown, at = 'body'): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(got) || got.length !== shown.length) return [`${at}: ${JSON.stringify(got)}`];
    return shown.flatMap((item, i) => differences(item, got[i], `${at}[${i}]`));
  }
  if (shown !== null && typeof shown === 'object') {
    if (got === null || typeof got !== 'object') return [`${at}: ${JSON.stringify(got)}`];
    return Object.entries(shown).flatMap(([key, value]) =>
      differences(value, (got as Record<string, unknown>)[key], `${at}.${key}`),
    );
  }
  const same = typeof shown === 'string' && /\d/.test(shown) ? typeof got === 'string' : got === shown;
  return same ? [] : [`${at}: ${JSON.stringify(got)} (shown: ${JSON.stringify(shown)})`];
}

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    temporal: testTemporalConfig(),
    caseFile: testCaseFileOption(),
    workflowBundle: testWorkflowBundle(),
    simulatorSeed: 1204,
    spoolDir: testDirectory('spool'),
    processingDelayMs: 20,
  });
});

afterAll(async () => {
  await stack?.stop();
});

test('the walk-through of docs/integration.md answers as it shows, step by step', async () => {
  const exchanges = walkthrough();
  expect(exchanges.length).toBeGreaterThanOrEqual(8);
  const variables: Record<string, string> = {
    LOS_KEY: stack.caseApiKeys!.origination,
    OPERATOR_KEY: stack.caseApiKeys!.operator,
  };
  const origins: [string, string][] = [
    ['http://127.0.0.1:8480', new URL(stack.simulator.controlUrl).origin],
    ['http://127.0.0.1:8490', stack.caseApi.url],
  ];
  const fill = (text: string) => text.replace(/\$([A-Z_]+)/g, (whole, name: string) => variables[name] ?? whole);
  for (const [n, { request, answer }] of exchanges.entries()) {
    const url = origins.reduce((u, [documented, real]) => u.replace(documented, real), fill(request.url));
    const send = async () => {
      const response = await fetch(url, {
        method: request.method,
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, fill(v)])),
        body: request.body ? fill(request.body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    };
    let got = await send();
    const deadline = Date.now() + 20_000;
    const unlike = () => [
      ...(got.status === answer.status ? [] : [`status ${got.status}`]),
      ...differences(answer.body, got.body),
    ];
    while (request.method === 'GET' && unlike().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      got = await send();
    }
    const printing = Boolean(process.env.WALKTHROUGH_PRINT);
    if (printing) console.log(`${request.method} ${request.url}\n${got.status} ${JSON.stringify(got.body)}`);
    if (!printing)
      expect({ step: n + 1, request: `${request.method} ${request.url}`, unlike: unlike() }).toEqual({
        step: n + 1,
        request: `${request.method} ${request.url}`,
        unlike: [],
      });
    // The provider's ids, for the requests after: `case_id` is $CASE_ID, `person_id` $PERSON_ID.
    for (const [key, value] of Object.entries((got.body ?? {}) as Record<string, unknown>))
      if (/_id$/.test(key) && typeof value === 'string') variables[key.toUpperCase()] = value;
  }
});
