/**
 * Every process finds its state (keys, tokens, the embedded databases, the spool) under the
 * project root's `.data/` through config/projectRoot.ts's dataPath(), which finds the root by its
 * package.json: a path built from a source file's own folder (`__dirname/../.data`) lands in
 * another `.data/` once compiled to dist/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../config/projectRoot';

const skipped = new Set(['node_modules', 'test', 'dist', '.git', '.tools', '.data', 'bench']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(path.join(dir, entry.name));
    return entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : [];
  });
}

test('no process code builds a path to .data/ other than through dataPath()', () => {
  const offenders = sourceFiles(projectRoot)
    .filter((file) => path.relative(projectRoot, file) !== path.join('config', 'projectRoot.ts'))
    .filter((file) => /['"]\.data['"/]/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(projectRoot, file));
  expect(offenders).toEqual([]);
});
