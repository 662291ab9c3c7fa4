/**
 * The journey checks its input without zod (workflows/journeyInputCheck.ts) while clients check it
 * with the schema (workflows/journeyInput.ts). Both must agree: the same inputs accepted, and the
 * same value (defaults, dropped keys, key order) handed to the journey.
 */
import fc from 'fast-check';
import { onboardCaseInputSchema } from '../../workflows/journeyInput';
import { checkJourneyInput } from '../../workflows/journeyInputCheck';
import { defaultDeadlines } from '../../workflows/deadlines';

const junk = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant(['x']));
const key = fc.string().filter((k) => k !== '__proto__');
const optional = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields, { requiredKeys: [] });

/**
 * Journey inputs. `faulty`: each field is now and then of the wrong type or breaks a rule, so
 * that both outcomes are common; otherwise every field is well-formed (the cross-field rules
 * still refuse some).
 */
function journeyInputs(faulty: boolean) {
  const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> => (faulty ? fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: junk, weight: 1 }) : valid);
  const text = faulty ? fc.oneof({ arbitrary: fc.string({ minLength: 1 }), weight: 8 }, { arbitrary: fc.constant(''), weight: 1 }) : fc.string({ minLength: 1 });
  const company = optional({
    company_id: mostly(text),
    company_number: mostly(fc.oneof(fc.string(), fc.constant(null))),
    company_name: mostly(fc.oneof(fc.string(), fc.constant(null))),
    country_code: mostly(fc.oneof((faulty ? fc.constantFrom('GB', 'ie', 'GBR', '1A') : fc.constantFrom('GB', 'ie')), fc.constant(null))),
    provider_id: mostly(fc.oneof(fc.string(), fc.constant(null))),
    unknown_field: fc.string(),
  });
  const document = optional({
    document_id: mostly((faulty ? fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', 'ABCDEF01-2345-6789-ABCD-EF0123456789')) : fc.uuid())),
    file_name: mostly((faulty ? fc.oneof(text, fc.constant('f'.repeat(256))) : text)),
    content_base64: mostly(text),
    document_type: mostly(fc.oneof(fc.constantFrom('BankStatement', 'Payslip', 'SA302', 'TaxOverview', ...(faulty ? ['Selfie'] : [])), fc.constant(null))),
    size: fc.nat(),
  });
  const steps = optional({
    creditReport: mostly(fc.boolean()),
    identityVerification: mostly(fc.boolean()),
    banking: mostly(fc.constantFrom('open_banking', 'bank_statements', ...(faulty ? ['carrier_pigeon'] : []))),
    documents: mostly(fc.array(document, { maxLength: 3 })),
    affordability: mostly(fc.boolean()),
    incomeEmployer: mostly(fc.boolean()),
  });
  const duration = faulty ? fc.oneof(fc.integer({ min: -2, max: 10_000_000 }), fc.constantFrom(1.5, '2 days', '90 seconds', '12', '1.5 hours', 'soon', '2 days ago')) : fc.oneof(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom('2 days', '90 seconds', '12', '1.5 hours'));
  const deadlines = fc.dictionary(faulty ? fc.oneof({ arbitrary: fc.constantFrom(...Object.keys(defaultDeadlines)), weight: 12 }, { arbitrary: fc.constant('bogus'), weight: 1 }) : fc.constantFrom(...Object.keys(defaultDeadlines)), mostly(duration), { maxKeys: 3 });
  const carriedStep = optional({
    state: mostly(fc.constantFrom('completed', 'waived', ...(faulty ? ['running'] : []))),
    attempt: mostly(fc.integer({ min: faulty ? 0 : 1, max: 4 })),
    workflowId: mostly(text),
    providerIds: mostly(fc.dictionary(key, mostly(fc.string()), { maxKeys: 2 })),
    reason: mostly(fc.oneof(fc.string(), fc.constant(null))),
    detail: fc.jsonValue({ maxDepth: 2 }),
    lastEvent: mostly(fc.oneof(fc.constant(null), optional({ eventType: mostly(fc.string()), receivedAt: mostly(fc.string()), problems: mostly(fc.array(fc.string(), { maxLength: 2 })) }))),
  });
  const carryOver = optional({
    steps: mostly(fc.dictionary(key, mostly(carriedStep), { maxKeys: 2 })),
    attempts: mostly(fc.dictionary(key, mostly((faulty ? fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant(1.5)) : fc.nat(5))), { maxKeys: 2 })),
  });
  return fc.record(
    {
      caseId: mostly(text),
      company: mostly(company),
      people: mostly(fc.array(mostly(optional({ personId: mostly(text) })), { maxLength: 2 })),
      steps: mostly(steps),
      deadlines: mostly(deadlines),
      automaticPicklistRule: mostly(fc.boolean()),
      maxResubmissions: mostly((faulty ? fc.oneof(fc.integer({ min: -1, max: 11 }), fc.constant(2.5)) : fc.nat(10))),
      carryOver: mostly(carryOver),
      origin: fc.string(),
    },
    { requiredKeys: ['caseId', 'steps'] },
  );
}

/** The top-level fields a list of `path: message` problems names. */
const fieldsOf = (paths: string[]) => [...new Set(paths.map((p) => p.split(/[.:]/)[0]))].sort();

test.each([
  ['faulty', true],
  ['well-formed', false],
])('on %s inputs the journey accepts exactly what the schema accepts, and gets the value the schema returns', (_name, faulty) => {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(journeyInputs(faulty), (input) => {
      const schema = onboardCaseInputSchema.safeParse(input);
      const checked = checkJourneyInput(input);
      expect({ input, ok: checked.ok }).toEqual({ input, ok: schema.success });
      if (schema.success && checked.ok) {
        accepted++;
        // Byte for byte: what the journey hands its steps is the same JSON, key order included.
        expect(JSON.stringify(checked.input)).toBe(JSON.stringify(schema.data));
        expect(checked.input).toStrictEqual(schema.data);
      } else if (!schema.success && !checked.ok) {
        refused++;
        expect(fieldsOf(checked.problems)).toEqual(fieldsOf(schema.error.issues.map((i) => (i.path.length ? i.path.join('.') : '(root)'))));
      }
    }),
    { numRuns: 2000, seed: 20260113 },
  );
  // Both outcomes were exercised in earnest.
  expect(accepted).toBeGreaterThan(faulty ? 0 : 400);
  expect(refused).toBeGreaterThan(400);
});

test('an input that is not an object, or lacks its steps, is refused', () => {
  for (const input of [undefined, null, 'case', [], { caseId: 'x' }]) {
    expect(onboardCaseInputSchema.safeParse(input).success).toBe(false);
    expect(checkJourneyInput(input)).toMatchObject({ ok: false, problems: [expect.any(String)] });
  }
});

test('the cross-field rules name their fields, as the schema does', () => {
  const checked = checkJourneyInput({ caseId: 'x', steps: { creditReport: true, identityVerification: true, affordability: true } });
  expect(checked).toEqual({
    ok: false,
    problems: [
      'company: company is required for the credit report step',
      'people: people needs at least one person for identity verification',
      'steps.banking: affordability runs after banking: choose a banking method',
    ],
  });
});
