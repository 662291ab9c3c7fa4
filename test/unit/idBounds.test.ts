/**
 * Every id a journey input carries is bounded and checked, by the schema every client parses with
 * and by the journey's own check of an input that skipped it: an id the journey builds workflow
 * ids and provider paths from fits both, and names and ids hold no bidi or control characters
 * (which make a console line read other than it is).
 */
import { onboardCaseInputSchema } from '../../client/journeyInput';
import { inputProblems } from '../../workflows/journeyInputCheck';

const guid = '3f2b1c9e-8d7a-4e6f-9b0c-1a2b3c4d5e6f';
const valid = {
  caseId: guid,
  company: { company_id: 'c-1', company_name: 'Acme Widgets Ltd' },
  people: [{ personId: guid, name: 'Ada Lovelace' }],
  reference: 'APP-1',
  steps: { creditReport: true, identityVerification: true },
};
const problemsOf = (input: unknown) => {
  const parsed = onboardCaseInputSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const withPerson = (personId: string, name?: string) => ({ ...valid, people: [{ personId, name }] });
const withCompany = (company: Record<string, unknown>) => ({ ...valid, company: { ...valid.company, ...company } });

test('the ids a provider made and a case id of the usual forms are taken', () => {
  expect(problemsOf(valid)).toEqual([]);
  expect(problemsOf({ ...withPerson('p-1'), caseId: 'case:2024.07_a' })).toEqual([]);
  expect(inputProblems(valid)).toEqual([]);
});

test('a 3,000-character personId is refused, naming the field, the limit and the fix', () => {
  const problems = problemsOf(withPerson('p'.repeat(3000)));
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/^people\.0\.personId: /);
  expect(problems[0]).toContain('at most 200 characters');
  expect(problems[0]).toContain('person_id the provider answered');
});

test.each([
  ['a bidi override', `p-1\u202e`],
  ['a bidi isolate', `\u2066p-1`],
  ['a slash, which would make one step key read as another', 'p/2'],
  ['dots alone, a path segment the provider URL would climb out of', '..'],
  ['a space', 'p 1'],
  ['nothing', ''],
])('a personId with %s is refused', (_what, personId) => {
  expect(problemsOf(withPerson(personId))).toEqual([expect.stringMatching(/^people\.0\.personId: /)]);
});

test('caseId, company_id and reference are bounded and checked the same way', () => {
  expect(problemsOf({ ...valid, caseId: '..' })).toEqual([expect.stringMatching(/^caseId: /)]);
  expect(problemsOf({ ...valid, caseId: `case\u202e1` })).toEqual([expect.stringMatching(/^caseId: /)]);
  expect(problemsOf(withCompany({ company_id: 'c'.repeat(201) }))).toEqual([
    expect.stringMatching(/^company\.company_id: .*at most 200 characters/),
  ]);
  expect(problemsOf(withCompany({ company_id: `c\u200f1` }))).toEqual([
    expect.stringMatching(/^company\.company_id: /),
  ]);
  expect(problemsOf({ ...valid, reference: `APP\u202e-1` })).toEqual([expect.stringMatching(/^reference: /)]);
  expect(problemsOf({ ...valid, reference: 'APP\n1' })).toEqual([expect.stringMatching(/^reference: /)]);
});

test.each([
  ['U+202E (right-to-left override)', '\u202e'],
  ['U+202A (left-to-right embedding)', '\u202a'],
  ['U+2067 (right-to-left isolate)', '\u2067'],
  ['U+200F (right-to-left mark)', '\u200f'],
  ['U+061C (Arabic letter mark)', '\u061c'],
  ['a control character (BEL)', '\u0007'],
  ['a line break', '\n'],
])('a company name and a person name holding %s are refused', (_what, character) => {
  expect(problemsOf(withCompany({ company_name: `Acme${character} Ltd` }))).toEqual([
    expect.stringMatching(/^company\.company_name: .*(bidi|control)/),
  ]);
  expect(problemsOf(withPerson(guid, `Ada${character}Lovelace`))).toEqual([
    expect.stringMatching(/^people\.0\.name: .*(bidi|control)/),
  ]);
});

test('names in any script are taken', () => {
  expect(problemsOf(withCompany({ company_name: 'Société Générale — شركة 株式会社' }))).toEqual([]);
  expect(problemsOf(withPerson(guid, 'Zoë Ó Súilleabháin-محمد'))).toEqual([]);
});

test("the journey's own check refuses the ids a client that skipped the schema sent", () => {
  const raw = (input: Record<string, unknown>) => inputProblems({ ...valid, ...input });
  expect(raw({ people: [{ personId: 'p'.repeat(3000) }] })).toEqual([
    expect.stringMatching(/^people\[0\]\.personId: .*at most 200 characters/),
  ]);
  expect(raw({ people: [{ personId: 'p/2' }] })).toEqual([expect.stringMatching(/^people\[0\]\.personId: /)]);
  expect(raw({ caseId: 'c'.repeat(201) })).toEqual([expect.stringMatching(/^caseId: .*at most 200 characters/)]);
  expect(raw({ caseId: 'V/identity-verification/nobody/2' })).toEqual([expect.stringMatching(/^caseId: /)]);
  expect(raw({ company: { company_id: 'c'.repeat(5000) } })).toEqual([expect.stringMatching(/^company\.company_id: /)]);
  expect(raw({ reference: 'r'.repeat(201) })).toEqual([expect.stringMatching(/^reference: /)]);
});
