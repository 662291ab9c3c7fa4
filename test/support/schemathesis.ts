/**
 * Schemathesis (PyPI, pinned), the property-based API tester the case API's contract test runs.
 * Installed into the project like the Temporal CLI: a venv under `.tools/` built with `python3 -m
 * venv` + `pip install --require-hashes` (schemathesis and each package it needs, pinned with their
 * files' sha256 in `schemathesis-requirements.txt`), by `npm install`'s postinstall and again by
 * the test when missing. Idempotent: once `.tools/schemathesis-<version>/` exists nothing is
 * installed. The venv is built beside it under a name of its own and renamed into place, so two
 * installers at once never see half of one; it is run as `<venv>/bin/python -m schemathesis.cli`,
 * which (unlike the scripts' shebangs) still works after the rename.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../config/projectRoot';

const run = promisify(execFile);

export const SCHEMATHESIS_VERSION = '4.32.5';

/** schemathesis==SCHEMATHESIS_VERSION and every dependency, each with its hashes: pip refuses any other file. */
export const schemathesisRequirements = path.join(__dirname, 'schemathesis-requirements.txt');

const venvOf = (root: string) => path.join(root, '.tools', `schemathesis-${SCHEMATHESIS_VERSION}`);

/** The venv's python, with which `-m schemathesis.cli` runs the `st` command. */
export const schemathesisPython = (root = projectRoot) => path.join(venvOf(root), 'bin', 'python');

export async function resolveSchemathesis(
  options: { root?: string; log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  const { root = projectRoot, log = () => {}, env = process.env } = options;
  const python = schemathesisPython(root);
  if (existsSync(python)) return python;
  log(`Installing Schemathesis (PyPI schemathesis==${SCHEMATHESIS_VERSION}) into .tools/ …`);
  const building = `${venvOf(root)}-building-${process.pid}`;
  const basePython = env.PYTHON ?? 'python3';
  try {
    mkdirSync(path.dirname(building), { recursive: true });
    await run(basePython, ['-m', 'venv', building], { env });
    await run(
      path.join(building, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', '--require-hashes', '-r', schemathesisRequirements],
      { env, maxBuffer: 16 * 1024 * 1024 },
    );
    // Another installer may have finished first: its venv is as good as this one.
    if (!existsSync(python)) renameSync(building, venvOf(root));
  } catch (error) {
    const detail =
      error instanceof Error ? (error as Error & { stderr?: string }).stderr || error.message : String(error);
    throw new Error(
      `Could not install Schemathesis with ${basePython} -m venv + pip install schemathesis==${SCHEMATHESIS_VERSION}: ${detail.trim()}\n` +
        'It needs Python 3.10+ with the venv module (Debian: apt-get install python3-venv) and PyPI.',
      { cause: error },
    );
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  log(`Schemathesis installed in ${path.relative(root, venvOf(root))}`);
  return python;
}
