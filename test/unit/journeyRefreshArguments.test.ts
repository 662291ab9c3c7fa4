/**
 * `journey refresh` checks its items and its reason before anything connects: an item that is no
 * evidence kind is a usage error naming it and listing the kinds, and nothing runs.
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

test('evidence kinds with a reason run', () => {
  expect(parse(['refresh', guid, 'creditReport', 'bankTransactions', '--reason', 'annual review'])).toEqual({
    ran: true,
  });
  expect(parse(['refresh', guid, 'identityVerification', '--reason', 'annual review', '--yes'])).toEqual({ ran: true });
});

test('an unknown item is a usage error naming it and the items there are, and nothing runs', () => {
  expect(parse(['refresh', guid, 'creditReport', 'creditScore', '--reason', 'annual review'])).toEqual({
    refused:
      'refresh: unknown item "creditScore"; the items are creditReport, identityVerification, ' +
      'bankTransactions, affordability, incomeEmployer',
  });
});

test('a refresh without a reason, or naming an item twice, is a usage error', () => {
  expect(parse(['refresh', guid, 'creditReport'])).toEqual({ refused: expect.stringMatching(/--reason/) });
  expect(parse(['refresh', guid, 'creditReport', '--reason', ''])).toEqual({
    refused: expect.stringMatching(/reason/),
  });
  expect(parse(['refresh', guid, 'creditReport', 'creditReport', '--reason', 'x'])).toEqual({
    refused: expect.stringMatching(/creditReport.*twice|twice.*creditReport/),
  });
});
