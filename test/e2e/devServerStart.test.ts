/**
 * Starting the dev server on a fixed port, as the fault suite's restarts do: the port is picked
 * where no outgoing connection can take it, a server that dies at start gets another go, and a
 * server that keeps dying is reported with the cause from its log, not only a goroutine dump.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logExcerpt, startDevServer, type DevServer } from '../../cli/devServer';
import { ephemeralRangeStart, freePort } from '../../cli/freePort';
import { resolveTemporalCli } from '../../cli/temporalCli';

let dir: string;
let server: DevServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dev-server-start-'));
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A CLI that panics like the Go runtime on its first `deaths` runs, then is the real one. */
function dyingCli(realCli: string, deaths: number): string {
  const counter = path.join(dir, 'runs');
  const script = path.join(dir, 'temporal');
  writeFileSync(
    script,
    `#!/bin/sh
runs=$(cat "${counter}" 2>/dev/null || echo 0)
echo $((runs + 1)) > "${counter}"
if [ "$runs" -lt ${deaths} ]; then
  echo "panic: listen tcp 127.0.0.1: bind: address already in use" >&2
  echo "" >&2
  i=0; while [ $i -lt 40 ]; do echo "goroutine frame $i" >&2; i=$((i + 1)); done
  exit 2
fi
exec "${realCli}" "$@"
`,
  );
  chmodSync(script, 0o755);
  return script;
}

test('ports are picked below the ephemeral range, where outgoing connections never land', async () => {
  const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
  for (const port of ports) expect(port).toBeLessThan(ephemeralRangeStart());
  expect(new Set(ports).size).toBeGreaterThan(1);
});

test('a server that dies at start on its port is started again', async () => {
  const cliPath = dyingCli(await resolveTemporalCli({ log: () => {} }), 1);
  const port = await freePort();
  server = await startDevServer({ cliPath, port, logFile: path.join(dir, 'server.log') });
  expect(server.address).toBe(`127.0.0.1:${port}`);
}, 60_000);

test('a server that keeps dying is reported with the panic, not only the goroutine dump', async () => {
  const cliPath = dyingCli('/bin/false', 3);
  const logFile = path.join(dir, 'server.log');
  const failure = startDevServer({ cliPath, port: await freePort(), logFile });
  await expect(failure).rejects.toThrow(
    /exited with code 2\n[^]*panic: listen tcp 127\.0\.0\.1: bind: address already in use/,
  );
  expect(logExcerpt(logFile)).toMatch(/goroutine frame 39\s*$/);
}, 60_000);
