/**
 * BRIDGE_LOG_LEVEL, on the bridge as deployed (`webhook-bridge/main.ts` in a process of its own, a
 * real dev server): at the default `info` it writes one line per accepted delivery; at `warn` only
 * what went wrong, so a refused delivery is still logged. Neither writes the body or the signature.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startBridgeProcess } from '../../bench/bridgeProcess';
import { envelope, idvCompleted, post, sign } from '../support/deliveries';
import { testDirectory, testTemporalConfig } from '../setup/testEnvironment';

const SECRET = 'log-level-secret';
const temporal = testTemporalConfig();

/** A bridge process with these variables, and the file it logs to. */
function bridgeWith(env: Record<string, string>) {
  const directory = testDirectory('bridge-log-level');
  const logFile = `${directory}.log`;
  const started = startBridgeProcess({
    temporalAddress: temporal.address,
    taskQueue: temporal.taskQueue,
    secret: SECRET,
    spoolDir: path.join(directory, 'spool'),
    logFile,
    env,
  });
  return { started, logFile };
}

async function logAfter(env: Record<string, string>) {
  const { started, logFile } = bridgeWith(env);
  const bridge = await started;
  const raw = envelope('IdentityVerification.Completed', idvCompleted());
  const signature = sign(raw, SECRET);
  try {
    expect((await post(bridge.url, raw, { 'x-hmac-sha256-signature': signature })).status).toBe(202);
    expect((await post(bridge.url, raw, { 'x-hmac-sha256-signature': sign(raw, 'another-secret') })).status).toBe(401);
  } finally {
    // The log is read once the process has exited, so that every line is on disk.
    await bridge.stop();
  }
  return { log: readFileSync(logFile, 'utf8'), signature };
}

test('at the default level, one line per accepted delivery and one per refusal', async () => {
  const { log, signature } = await logAfter({});
  expect(log).toContain('delivery accepted');
  expect(log).toContain('delivery refused: signature');
  expect(log).not.toContain(signature);
  expect(log).not.toContain('Lovelace');
}, 60_000);

test('at warn, refusals are logged and accepted deliveries are not', async () => {
  const { log } = await logAfter({ BRIDGE_LOG_LEVEL: 'warn' });
  expect(log).toContain('delivery refused: signature');
  expect(log).not.toContain('delivery accepted');
}, 60_000);

test('an unknown level stops the bridge at start, naming the variable', async () => {
  const { started, logFile } = bridgeWith({ BRIDGE_LOG_LEVEL: 'verbose' });
  // A bridge that started anyway is stopped, not left running past the test.
  await started.then((bridge) => bridge.stop()).catch(() => undefined);
  await expect(started).rejects.toThrow(/exited before it answered/);
  expect(readFileSync(logFile, 'utf8')).toMatch(
    /BRIDGE_LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent/,
  );
}, 60_000);
