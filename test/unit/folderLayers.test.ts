/**
 * Imports between folders run one way (docs/architecture.md, "Layers"): each folder
 * imports only folders below it in `layers`, so no two folders import each other. Read from the
 * sources' own import statements, type-only imports included (they tie two folders as much as
 * any). Tests sit above everything and may import anything; the fault harness the fault suites and
 * the soak share (`test/support/faultHarness`) is a layer of its own, below `bench`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../config/projectRoot';

/** Bottom first. */
const layers = [
  'provider',
  'config',
  'codec',
  'case-file',
  'case-events',
  'client',
  'activities',
  'workflows',
  'worker',
  'webhook-bridge',
  'simulator',
  'case-api',
  'cli',
  'test/support/faultHarness',
  'bench',
];

/** The layer a project-relative path belongs to: a layer folder it lies in, else its first segment. */
const layerOf = (relative: string): string =>
  layers.find((layer) => relative === layer || relative.startsWith(`${layer}/`)) ?? relative.split('/')[0]!;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|cjs|js)$/.test(name) ? [full] : [];
  });
}

/** Folder → the folders its files import, each with one file that does, for the message. */
function folderImports(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const folder of layers) {
    for (const file of sourceFiles(path.join(projectRoot, folder))) {
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import|require)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = layerOf(
          path
            .relative(projectRoot, path.resolve(path.dirname(file), spec!))
            .split(path.sep)
            .join('/'),
        );
        if (target === folder || target.startsWith('..')) continue;
        const targets = edges.get(folder) ?? new Map<string, string>();
        if (!targets.has(target)) targets.set(target, path.relative(projectRoot, file));
        edges.set(folder, targets);
      }
    }
  }
  return edges;
}

const edges = folderImports();

test('every folder of the project has its place in the layers', () => {
  const imported = new Set([...edges.values()].flatMap((targets) => [...targets.keys()]));
  expect([...imported].filter((folder) => !layers.includes(folder))).toEqual([]);
});

test('each folder imports only the folders below it', () => {
  const upward: string[] = [];
  for (const [folder, targets] of edges) {
    for (const [target, file] of targets)
      if (layers.indexOf(target) > layers.indexOf(folder)) upward.push(`${folder} imports ${target} (${file})`);
  }
  expect(upward).toEqual([]);
});

test('no two folders import each other', () => {
  const pairs: string[] = [];
  for (const [folder, targets] of edges) {
    for (const target of targets.keys())
      if (edges.get(target)?.has(folder) && folder < target) pairs.push(`${folder} <-> ${target}`);
  }
  expect(pairs).toEqual([]);
});
