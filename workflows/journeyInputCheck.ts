/**
 * The journey's own check of its input, without zod. Clients check the input at the boundary
 * with `onboardCaseInputSchema` (journeyInput.ts: the case API, the CLI); the journey checks it
 * again on every start and replay, and a workflow bundle that imported the schema would build zod
 * and its schemas again for every workflow run of every type (issue 13). This check accepts what
 * the schema accepts and returns what it returns (its defaults applied, unknown keys dropped);
 * test/unit/journeyInputCheck.test.ts holds it to the schema. Its messages name the field at
 * fault, as the schema's do, though not always in the same words.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { CarryOver, ValidOnboardCaseInput } from './journeyInput';
import { defaultDeadlines } from './deadlines';

type Path = readonly (string | number)[];
type Documents = NonNullable<ValidOnboardCaseInput['steps']['documents']>;
type CarriedStep = CarryOver['steps'][string];

const documentKinds = ['BankStatement', 'Payslip', 'SA302', 'TaxOverview'] as const;
const bankingMethods = ['open_banking', 'bank_statements'] as const;
const carriedStates = ['completed', 'waived'] as const;
const deadlineKeys = Object.keys(defaultDeadlines);
/** As the schema's: a Temporal duration in text, such as "2 days". */
const durationText = /^\d+(\.\d+)?\s*[a-zA-Z]+$|^\d+$/;
/** As zod's `uuid()`: RFC 9562 ids, and the nil and max ids. */
const uuidText = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const countryCode = /^[A-Za-z]{2}$/;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return typeof value;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Problems come in the schema's two kinds. A wrong type or option stops the check (`abort`): the
 * values read after it are never used, and the cross-field rules do not run. A value of the right
 * type that breaks a rule (too short, no match, an unknown key) is `noted`: the check goes on,
 * the cross-field rules still run, and the input is refused all the same.
 */
class Check {
  readonly problems: string[] = [];
  aborted = false;

  note(path: Path, message: string): void {
    this.problems.push(`${path.length ? path.join('.') : '(root)'}: ${message}`);
  }

  abort<T>(path: Path, message: string, value: unknown): T {
    this.note(path, message);
    this.aborted = true;
    return value as T;
  }

  expected<T>(path: Path, expected: string, value: unknown, message?: string): T {
    return this.abort(path, message ?? `Invalid input: expected ${expected}, received ${kindOf(value)}`, value);
  }

  string(value: unknown, path: Path, rules: { min?: [number, string]; max?: [number, string]; pattern?: [RegExp, string]; typeMessage?: string } = {}): string {
    if (typeof value !== 'string') return this.expected(path, 'string', value, rules.typeMessage);
    if (rules.min && value.length < rules.min[0]) this.note(path, rules.min[1]);
    if (rules.max && value.length > rules.max[0]) this.note(path, rules.max[1]);
    if (rules.pattern && !rules.pattern[0].test(value)) this.note(path, rules.pattern[1]);
    return value;
  }

  boolean(value: unknown, path: Path, fallback: boolean): boolean {
    if (value === undefined) return fallback;
    return typeof value === 'boolean' ? value : this.expected(path, 'boolean', value);
  }

  integer(value: unknown, path: Path, min: number, max = Number.MAX_SAFE_INTEGER): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.expected(path, 'number', value);
    if (!Number.isInteger(value)) return this.expected(path, 'int', value);
    if (value < Math.max(min, Number.MIN_SAFE_INTEGER)) this.note(path, `Too small: expected number to be >=${min}`);
    if (value > max) this.note(path, `Too big: expected number to be <=${max}`);
    return value;
  }

  oneOf<T extends string>(value: unknown, path: Path, options: readonly T[]): T {
    return (options as readonly unknown[]).includes(value) ? (value as T) : this.abort(path, `Invalid option: expected one of ${options.map((o) => `"${o}"`).join('|')}`, value);
  }

  object(value: unknown, path: Path): Record<string, unknown> {
    return isRecord(value) ? value : this.expected(path, 'object', {});
  }

  array<T>(value: unknown, path: Path, element: (item: unknown, path: Path) => T): T[] {
    if (!Array.isArray(value)) return this.expected(path, 'array', []);
    return value.map((item, i) => element(item, [...path, i]));
  }

  /** Each entry's value checked, in the input's order; with `keys`, other keys are noted and left out. */
  record<T>(value: unknown, path: Path, entry: (item: unknown, path: Path) => T, keys?: readonly string[]): Record<string, T> {
    if (!isRecord(value)) return this.expected(path, 'record', {});
    const out: Record<string, T> = {};
    for (const [key, item] of Object.entries(value)) {
      if (keys && !keys.includes(key)) this.note([...path, key], `Unrecognized key: expected one of ${keys.join(', ')}`);
      else out[key] = entry(item, [...path, key]);
    }
    return out;
  }

  /**
   * The first form that fits, as the schema's union: one with no problem wins; else the only one
   * that did not abort, with its problems; else the value fits no form.
   */
  firstOf<T>(value: unknown, path: Path, forms: readonly ((check: Check) => T)[], description: string): T {
    const tried = forms.map((form) => {
      const check = new Check();
      return { check, value: form(check) };
    });
    const clean = tried.find((t) => t.check.problems.length === 0);
    if (clean) return clean.value;
    const continuable = tried.filter((t) => !t.check.aborted);
    const [only] = continuable;
    if (continuable.length === 1 && only) {
      this.problems.push(...only.check.problems);
      return only.value;
    }
    return this.abort(path, `Invalid input: expected ${description}`, value);
  }
}

/** An optional, nullable value: null and absence pass as they are. */
function optionalNullable<T>(value: unknown, path: Path, inner: (v: unknown, p: Path) => T): T | null | undefined {
  if (value === undefined || value === null) return value;
  return inner(value, path);
}

/**
 * `{ key: value }`, or nothing for an absent value: the schema leaves absent optional keys out.
 * Spread in the schema's key order, so that what the journey passes on is the same, byte for byte.
 */
function present<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

function company(check: Check, value: unknown, path: Path): ValidOnboardCaseInput['company'] {
  if (value === undefined) return undefined;
  const input = check.object(value, path);
  const text = (v: unknown, p: Path) => check.string(v, p);
  const companyId = check.string(input.company_id, [...path, 'company_id'], { typeMessage: 'company_id is required', min: [1, 'company_id must be at least 1 character'] });
  const number = optionalNullable(input.company_number, [...path, 'company_number'], text);
  const name = optionalNullable(input.company_name, [...path, 'company_name'], text);
  const country = optionalNullable(input.country_code, [...path, 'country_code'], (v, p) => check.string(v, p, { pattern: [countryCode, 'country_code must be a two-letter ISO country code'] }));
  const providerId = optionalNullable(input.provider_id, [...path, 'provider_id'], text);
  return { company_id: companyId, ...present('company_number', number), ...present('company_name', name), ...present('country_code', country), ...present('provider_id', providerId) };
}

/** A document by reference, else inline bytes (older journeys). */
function documentEntry(check: Check, value: unknown, path: Path): Documents[number] {
  const type = (c: Check, input: Record<string, unknown>) => optionalNullable(input.document_type, [...path, 'document_type'], (v, p) => c.oneOf(v, p, documentKinds));
  const byReference = (c: Check) => {
    const input = c.object(value, path);
    const documentId = c.string(input.document_id, [...path, 'document_id'], { pattern: [uuidText, 'document_id must be the id `journey upload` printed'] });
    const fileName = c.string(input.file_name, [...path, 'file_name'], { min: [1, 'Too small: expected string to have >=1 characters'], max: [255, 'Too big: expected string to have <=255 characters'] });
    return { document_id: documentId, file_name: fileName, ...present('document_type', type(c, input)) };
  };
  const inline = (c: Check) => {
    const input = c.object(value, path);
    const fileName = c.string(input.file_name, [...path, 'file_name'], { min: [1, 'Too small: expected string to have >=1 characters'] });
    const content = c.string(input.content_base64, [...path, 'content_base64'], { min: [1, 'Too small: expected string to have >=1 characters'] });
    return { file_name: fileName, content_base64: content, ...present('document_type', type(c, input)) };
  };
  return check.firstOf<Documents[number]>(value, path, [byReference, inline], 'a document reference (document_id, file_name) or an inline document (file_name, content_base64)');
}

function steps(check: Check, value: unknown, path: Path): ValidOnboardCaseInput['steps'] {
  const input = check.object(value, path);
  const creditReport = check.boolean(input.creditReport, [...path, 'creditReport'], false);
  const identityVerification = check.boolean(input.identityVerification, [...path, 'identityVerification'], false);
  const banking = input.banking === undefined ? undefined : check.oneOf(input.banking, [...path, 'banking'], bankingMethods);
  const documents = input.documents === undefined ? undefined : check.array(input.documents, [...path, 'documents'], (d, p) => documentEntry(check, d, p));
  const affordability = check.boolean(input.affordability, [...path, 'affordability'], false);
  const incomeEmployer = check.boolean(input.incomeEmployer, [...path, 'incomeEmployer'], false);
  return { creditReport, identityVerification, ...present('banking', banking), ...present('documents', documents), affordability, incomeEmployer };
}

function duration(check: Check, value: unknown, path: Path): number | string {
  return check.firstOf<number | string>(value, path, [(c) => c.integer(value, path, 1), (c) => c.string(value, path, { pattern: [durationText, 'must be a duration such as "2 days"'] })], 'a duration');
}

function lastEvent(check: Check, value: unknown, path: Path): CarriedStep['lastEvent'] {
  if (value === undefined || value === null) return null;
  const input = check.object(value, path);
  const eventType = check.string(input.eventType, [...path, 'eventType']);
  const receivedAt = check.string(input.receivedAt, [...path, 'receivedAt']);
  const problems = input.problems === undefined ? undefined : check.array(input.problems, [...path, 'problems'], (v, p) => check.string(v, p));
  return { eventType, receivedAt, ...present('problems', problems) };
}

function carriedStep(check: Check, value: unknown, path: Path): CarriedStep {
  const input = check.object(value, path);
  const state = check.oneOf(input.state, [...path, 'state'], carriedStates);
  const attempt = check.integer(input.attempt, [...path, 'attempt'], 1);
  const workflowId = check.string(input.workflowId, [...path, 'workflowId'], { min: [1, 'Too small: expected string to have >=1 characters'] });
  const providerIds = input.providerIds === undefined ? {} : check.record(input.providerIds, [...path, 'providerIds'], (v, p) => check.string(v, p));
  const reason = input.reason === undefined || input.reason === null ? null : check.string(input.reason, [...path, 'reason']);
  const event = lastEvent(check, input.lastEvent, [...path, 'lastEvent']);
  return { state, attempt, workflowId, providerIds, reason, ...('detail' in input ? { detail: input.detail } : {}), lastEvent: event };
}

function carryOver(check: Check, value: unknown, path: Path): CarryOver | undefined {
  if (value === undefined) return undefined;
  const input = check.object(value, path);
  const carried = input.steps === undefined ? {} : check.record(input.steps, [...path, 'steps'], (v, p) => carriedStep(check, v, p));
  const attempts = input.attempts === undefined ? {} : check.record(input.attempts, [...path, 'attempts'], (v, p) => check.integer(v, p, 0));
  return { steps: carried, attempts };
}

function people(check: Check, value: unknown): ValidOnboardCaseInput['people'] {
  if (value === undefined) return [];
  return check.array(value, ['people'], (v, p) => ({ personId: check.string(check.object(v, p).personId, [...p, 'personId'], { min: [1, 'Too small: expected string to have >=1 characters'] }) }));
}

/** The schema's refinement: it runs unless a problem stopped the check. */
function crossFieldRules(check: Check, input: ValidOnboardCaseInput): void {
  if (input.steps.creditReport && !input.company) check.note(['company'], 'company is required for the credit report step');
  if (input.steps.identityVerification && input.people.length === 0) check.note(['people'], 'people needs at least one person for identity verification');
  if (input.steps.affordability && !input.steps.banking) check.note(['steps', 'banking'], 'affordability runs after banking: choose a banking method');
}

export type JourneyInputCheck = { ok: true; input: ValidOnboardCaseInput } | { ok: false; problems: string[] };

export function checkJourneyInput(raw: unknown): JourneyInputCheck {
  const check = new Check();
  const input = check.object(raw, []);
  if (check.aborted) return { ok: false, problems: check.problems };
  const valid: ValidOnboardCaseInput = {
    caseId: check.string(input.caseId, ['caseId'], { min: [1, 'caseId is required'] }),
    ...present('company', company(check, input.company, ['company'])),
    people: people(check, input.people),
    steps: steps(check, input.steps, ['steps']),
    deadlines: input.deadlines === undefined ? {} : check.record(input.deadlines, ['deadlines'], (v, p) => duration(check, v, p), deadlineKeys),
    automaticPicklistRule: check.boolean(input.automaticPicklistRule, ['automaticPicklistRule'], false),
    maxResubmissions: input.maxResubmissions === undefined ? 2 : check.integer(input.maxResubmissions, ['maxResubmissions'], 0, 10),
    ...present('carryOver', carryOver(check, input.carryOver, ['carryOver'])),
  };
  if (!check.aborted) crossFieldRules(check, valid);
  return check.problems.length ? { ok: false, problems: check.problems } : { ok: true, input: valid };
}

/** The checked input, or the journey's non-retryable `InvalidJourneyInput` failure naming every problem. */
export function journeyInputOrFail(raw: unknown): ValidOnboardCaseInput {
  const checked = checkJourneyInput(raw);
  if (!checked.ok) throw ApplicationFailure.create({ type: 'InvalidJourneyInput', message: `onboardCase input is invalid: ${checked.problems.join('; ')}`, nonRetryable: true });
  return checked.input;
}
