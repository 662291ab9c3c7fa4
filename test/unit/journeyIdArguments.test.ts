/**
 * The `journey` command line checks every id it takes with the schema the case API uses, before
 * anything connects: an id it could not use is a usage error naming the argument, the limit and
 * the fix, and nothing runs.
 */
import { journeyProgram } from '../../cli/journeyProgram';
import { JourneyCommandError } from '../../cli/journeyInputFile';

const guid = '3f2b1c9e-8d7a-4e6f-9b0c-1a2b3c4d5e6f';

/** What parsing `args` chose to run, or the usage error it threw. */
function parse(args: string[]): { ran: boolean } | { refused: string } {
  let ran = false;
  const program = journeyProgram(
    () => (ran = true),
    () => (ran = true),
  );
  for (const command of [program, ...program.commands]) command.configureOutput({ writeErr: () => {} });
  try {
    program.parse(args, { from: 'user' });
    return { ran };
  } catch (error) {
    if (error instanceof JourneyCommandError) return { refused: error.message };
    throw error;
  }
}

test('a well-formed case id, step key and picklist choice run', () => {
  expect(parse(['status', guid])).toEqual({ ran: true });
  expect(parse(['waive', guid, `identity-verification/${guid}`, 'checked by phone'])).toEqual({ ran: true });
  expect(parse(['resolve-picklist', guid, 'CR-1A2B3C4D'])).toEqual({ ran: true });
  expect(parse(['list', '--reference', 'APP-7'])).toEqual({ ran: true });
});

test.each([
  ['status', ['status', 'c'.repeat(3000)], /^<caseId> must be at most 200 characters/],
  ['cancel', ['cancel', `case\u202e1`], /^<caseId> .*case_id the provider answered/],
  ['retry-step', ['retry-step', guid, 'identity-verification/a/2'], /^<step> must be a step key/],
  ['waive', ['waive', '..', 'banking', 'why'], /^<caseId> /],
  ['resolve-picklist', ['resolve-picklist', guid, `CR-1\u202e`], /^<id> .*picklist offers/],
  ['list --reference', ['list', '--reference', `APP\u2066-7`], /^--reference /],
  ['evidence --export-document', ['evidence', guid, 'out.pdf', '--export-document', '../x'], /^--export-document /],
])('%s with an id it could not use is a usage error, and nothing runs', (_command, args, message) => {
  const parsed = parse(args);
  expect(parsed).toEqual({ refused: expect.stringMatching(message) });
});
