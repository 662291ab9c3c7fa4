/** The repository stands alone: no doc or simulator text points outside it, and every relative doc link resolves. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full, ext);
    return ext.test(name) ? [full] : [];
  });
}

const texts = [
  path.join(root, 'README.md'),
  ...filesUnder(path.join(root, 'docs'), /\.md$/),
  ...filesUnder(path.join(root, 'simulator'), /\.(md|ts)$/),
];

test('no doc or simulator file points outside the repository', () => {
  const outside = texts
    .filter((file) => /\.\.\/shared|\/work\//.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file));
  expect(outside).toEqual([]);
});

test('every relative link in the docs resolves to a file of the repository', () => {
  const broken: string[] = [];
  for (const file of texts.filter((f) => f.endsWith('.md'))) {
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) {
      if (!existsSync(path.resolve(path.dirname(file), target as string)))
        broken.push(`${path.relative(root, file)} → ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
