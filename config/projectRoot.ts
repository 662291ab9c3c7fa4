/**
 * The project's folder: the nearest one above this file that holds package.json. Found, not
 * assumed one level up, so that compiled code under dist/ keeps its state in the same `.data/`
 * (keys, tokens, the embedded databases) as the sources run with tsx.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '..');
  }
}

export const projectRoot = findRoot(__dirname);

/** A path under the project's `.data/` folder. */
export const dataPath = (...parts: string[]): string => path.join(projectRoot, '.data', ...parts);
