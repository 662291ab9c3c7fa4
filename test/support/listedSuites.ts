/**
 * The test files a Jest run would take, in the order its workers take them (`jest --listTests`
 * with JOURNEYS_SUITE and any other variables set, and any more of Jest's arguments), as paths
 * under test/.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

export async function listedSuites(env: Record<string, string>, args: string[] = []): Promise<string[]> {
  const { stdout } = await run(process.execPath, [require.resolve('jest/bin/jest'), '--listTests', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  return stdout
    .trim()
    .split('\n')
    .map((file) => path.relative(path.join(root, 'test'), file));
}
