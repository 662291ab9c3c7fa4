/**
 * What the journey's code needs of its input to read it, checked by hand in workflow code (the
 * full schema, client/journeyInput.ts, stays at the boundary: no zod in the workflow bundle). A
 * client other than ours (`temporal workflow start`, say) may send anything: an input this code
 * cannot read fails the journey at once, naming every field at fault, instead of failing its
 * workflow task over and over. The containers the schema defaults (`people`, `deadlines`,
 * `freshness`, the parts of `carryOver`) may be absent, and are read as empty.
 */
import type { Duration } from '@temporalio/common';
import { msToNumber } from '@temporalio/common/lib/time';
import { ApplicationFailure } from '@temporalio/workflow';
import { evidenceKindNames, type EvidenceKind } from '../client/evidenceValidity';
import type { ValidOnboardCaseInput } from '../client/journeyInput';
import { idProblem, type IdKind } from '../client/idRules';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The problems that keep the journey's code from reading `raw`, one per field. */
export function inputProblems(raw: unknown): string[] {
  if (!isObject(raw)) return ['the input: must be an object (the journey input, client/journeyInput.ts)'];
  const problems: string[] = [];
  if (!isText(raw.caseId)) problems.push('caseId: must be a non-empty string');
  else checkId(problems, 'caseId', raw.caseId, 'provider');
  if (!isObject(raw.steps)) problems.push('steps: must be an object naming the steps to run');
  if (raw.people !== undefined) {
    if (!Array.isArray(raw.people)) problems.push('people: must be a list');
    else
      raw.people.forEach((person: unknown, i) => {
        if (!isObject(person) || !isText(person.personId)) problems.push(`people[${i}].personId: must be a string`);
        else checkId(problems, `people[${i}].personId`, person.personId, 'provider');
      });
  }
  if (raw.company !== undefined && !isObject(raw.company)) problems.push('company: must be an object');
  if (isObject(raw.company)) checkId(problems, 'company.company_id', raw.company.company_id, 'provider');
  if (raw.reference !== undefined) checkId(problems, 'reference', raw.reference, 'other');
  if (raw.deadlines !== undefined && !isObject(raw.deadlines)) problems.push('deadlines: must be an object');
  if (raw.freshness !== undefined) checkFreshness(problems, raw.freshness);
  if (raw.refreshStale !== undefined && typeof raw.refreshStale !== 'boolean')
    problems.push('refreshStale: must be true or false');
  if (raw.carryOver !== undefined) {
    if (!isObject(raw.carryOver)) problems.push('carryOver: must be an object');
    else
      for (const part of ['steps', 'attempts', 'purchases'])
        if (raw.carryOver[part] !== undefined && !isObject(raw.carryOver[part]))
          problems.push(`carryOver.${part}: must be an object`);
  }
  return problems;
}

/** The validity windows by evidence kind: each a kind the journey knows, with a duration it can measure. */
function checkFreshness(problems: string[], freshness: unknown): void {
  if (!isObject(freshness)) {
    problems.push('freshness: must be an object');
    return;
  }
  for (const [kind, window] of Object.entries(freshness)) {
    if (!evidenceKindNames.includes(kind as EvidenceKind))
      problems.push(`freshness.${kind}: not an evidence kind (${evidenceKindNames.join(', ')})`);
    else if (!isDuration(window)) problems.push(`freshness.${kind}: must be a duration such as "30 days"`);
  }
}

function isDuration(value: unknown): boolean {
  if (typeof value !== 'number' && typeof value !== 'string') return false;
  try {
    return msToNumber(value as Duration) > 0;
  } catch {
    return false;
  }
}

/**
 * An id the journey builds workflow ids, keys and provider paths from, within the bounds the
 * boundary's schema holds it to (client/idRules.ts): over them, a child's start would fail its
 * workflow task over and over, and the journey would never end, nor take a cancel.
 */
function checkId(problems: string[], field: string, value: unknown, kind: IdKind): void {
  const problem = idProblem(value, kind);
  if (problem) problems.push(`${field}: ${problem}`);
}

/** The input as the journey reads it, or a non-retryable failure naming the fields it cannot read. */
export function readableInput(raw: unknown): ValidOnboardCaseInput {
  const problems = inputProblems(raw);
  if (problems.length > 0)
    throw ApplicationFailure.create({
      type: 'InvalidJourneyInput',
      message: `the journey cannot read its input: ${problems.join('; ')}`,
      nonRetryable: true,
      details: [problems],
    });
  const input = raw as Fields;
  const carryOver = isObject(input.carryOver)
    ? { steps: {}, attempts: {}, purchases: {}, ...input.carryOver }
    : undefined;
  return {
    ...input,
    people: input.people ?? [],
    deadlines: input.deadlines ?? {},
    ...(carryOver ? { carryOver } : {}),
  } as ValidOnboardCaseInput;
}
