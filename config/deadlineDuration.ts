/**
 * A deadline as the case API takes it: a duration every timer of the journey can run, documented
 * exactly. The journey input's own schema takes any number and unit-looking text (it must keep
 * reading the inputs of journeys already started), so `"1 xyz"`, `"0"` or a million years passed
 * the API and failed the journey's workflow task at its first timer, an accepted request that
 * could never run. Here: a positive number of milliseconds, or a positive amount (at most four
 * digits, three decimals) of a unit Temporal's duration parser knows, in lower case; at most
 * about 190 years, below the longest timer Temporal takes.
 */
import { z } from 'zod';

const MAX_MILLISECONDS = 999_999_999_999;
const units = [
  'ms',
  'msecs?',
  'milliseconds?',
  's',
  'secs?',
  'seconds?',
  'm',
  'mins?',
  'minutes?',
  'h',
  'hrs?',
  'hours?',
  'd',
  'days?',
  'w',
  'weeks?',
];
const positiveAmount = '(?:[1-9][0-9]{0,3}(?:\\.[0-9]{1,3})?|0\\.[0-9]{0,2}[1-9])';

export const DEADLINE_PATTERN = `^(?:[1-9][0-9]{0,11}|${positiveAmount} ?(?:${units.join('|')}))$`;

export const deadlineDurationSchema = z.union([
  z.number().int().min(1).max(MAX_MILLISECONDS).meta({ description: 'Milliseconds' }),
  z
    .string()
    .regex(
      new RegExp(DEADLINE_PATTERN),
      'must be a duration such as "2 days", "90 minutes" or "1.5 h" (a positive amount, at ' +
        'most 4 digits, of ms, s, m, h, d or w), or milliseconds',
    )
    .meta({ description: 'A duration such as "2 days" or "90 minutes"' }),
]);
