/**
 * docs/provider-assumptions.md shows the "purchase outcome unknown" state with real output: each
 * transcript in its section is one docs/operations.md shows for the same state (one run, copied,
 * never retyped), and the section says what an operator does, linking to operations.md for the rest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const docs = path.resolve(__dirname, '../../docs');

/** The text of the section under `heading` (up to the next heading of the same or a higher level). */
function section(file: string, heading: string): string {
  const text = readFileSync(path.join(docs, file), 'utf8');
  const level = /^#+/.exec(heading)![0].length;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

const fenced = (text: string) => [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);

test('provider-assumptions.md shows the outcome-unknown state with the same real output as operations.md', () => {
  const assumptions = section('provider-assumptions.md', '### Purchase outcome unknown');
  const operations = section('operations.md', '### Purchase outcome unknown');
  const shown = fenced(assumptions);
  expect(shown.length).toBeGreaterThan(0);
  expect(shown.join('')).toMatch(/reason: purchase outcome unknown since \S+: the provider may have created it/);
  expect(shown.filter((block) => !fenced(operations).includes(block))).toEqual([]);
});

test("provider-assumptions.md says what an operator does with the state and links to operations.md's section", () => {
  const assumptions = section('provider-assumptions.md', '### Purchase outcome unknown');
  expect(assumptions).toContain('retry-step');
  expect(assumptions).toContain('--fresh');
  expect(assumptions).toContain('](operations.md#purchase-outcome-unknown)');
});
