/**
 * The suites' environment (test/setup/leftoverHandles.ts) fails a test file that leaves a socket
 * open after it ends, whatever order the files run in, instead of a warning at the end of the run
 * when that file happens to be the last of its worker.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function runJest(file: string): { status: number | null; output: string } {
  const config = {
    rootDir: root,
    testEnvironment: '<rootDir>/test/setup/leftoverHandles.ts',
    transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
    testMatch: [`<rootDir>/test/support/leftoverHandles/${file}`],
  };
  // --forceExit: a file that leaves a timer would otherwise hold this Jest open until the timer fires.
  const ran = spawnSync(
    process.execPath,
    [require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--ci', '--forceExit'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  return { status: ran.status, output: ran.stdout + ran.stderr };
}

test('a file that leaves a socket open fails, naming what it left and how to close it', () => {
  const ran = runJest('leavesSocketOpen.check.ts');
  expect(ran.status).toBe(1);
  expect(ran.output).toMatch(/the test file left TCPSocketWrap ×1 running 500 ms after it ended/);
});

test("a test that fails shows its own failure, not what its end left open (a failed test's calls may still run)", () => {
  const ran = runJest('failsAndLeavesSocketOpen.check.ts');
  expect(ran.status).toBe(1);
  expect(ran.output).toMatch(/fails with a request of its own still open/);
  expect(ran.output).toMatch(/Expected: "a different answer"/);
  expect(ran.output).toMatch(/after a failed test, the file also left .*TCPSocketWrap/);
});

test('the same file that reads what it asked for passes', () => {
  const ran = runJest('closesWhatItOpens.check.ts');
  expect({ status: ran.status, output: ran.output }).toEqual({
    status: 0,
    output: expect.stringContaining('1 passed'),
  });
});

test('a file that leaves a timer pending fails, naming where the timer was set (a count of timers would miss it when another ended meanwhile)', () => {
  const ran = runJest('leavesTimerPending.check.ts');
  expect(ran.status).toBe(1);
  expect(ran.output).toMatch(/the test file left a timer set at .*leavesTimerPending\.check\.ts:3/);
});

test("an unref'd timer holds nothing open, and the file passes", () => {
  const ran = runJest('unrefsItsTimer.check.ts');
  expect({ status: ran.status, output: ran.output }).toEqual({
    status: 0,
    output: expect.stringContaining('1 passed'),
  });
});
