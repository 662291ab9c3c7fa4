/**
 * Every example payload and field table of the spec has a fixture the schemas accept, and broken
 * variants they reject with a message naming the field.
 */
import type { z } from 'zod';
import {
  creditReportRequestSchema,
  creditReportSchema,
  describeIssues,
  eventDataSchemas,
  eventTypesResponseSchema,
  eventTypesTree,
  tokenResponseSchema,
  webhookConfigurationSchema,
  webhookEnvelopeSchema,
  webhookSecretRecordSchema,
} from '../../provider';

const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = '2026-11-21T10:00:00Z';
const document = { document_id: guid(1), document_endpoint: `/v2/documents/${guid(1)}`, file_name: 'payslip.pdf' };
const account = {
  account_connection_id: guid(2),
  bank_account_endpoint: `/v2/bankaccounts/${guid(2)}`,
  bank_account_balances_endpoint: `/v2/bankaccounts/${guid(2)}/balances`,
  bank_account_transactions_endpoint: `/v2/bankaccounts/${guid(2)}/transactions`,
};
const identity = {
  identity_request: {
    request_id: 'req-1',
    identity_request_endpoint: '/v2/persons/p-1/identity-verifications',
    identity_result_endpoint: '/v2/identity/req-1',
  },
  person: { first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', person_id: 'p-1' },
};

type Variant = [description: string, value: unknown, field: string];
interface Fixture<Valid = unknown> {
  name: string;
  schema: z.ZodType;
  valid: Valid;
  // A method, so that a fixture of any `Valid` is also a `Fixture<unknown>` (method parameters are bivariant).
  broken(valid: Valid): Variant[];
}

/** A fixture whose `broken` variants are typed by its own `valid` value. */
const fixture = <Valid extends Record<string, unknown> | unknown[]>(f: Fixture<Valid>): Fixture => f;

const without = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

const fixtures: Fixture[] = [
  fixture({
    name: 'webhook configuration (2.1)',
    schema: webhookConfigurationSchema,
    valid: {
      webhook_name: 'onboarding',
      webhook_callback_url: 'https://hooks.example.com/provider',
      event_types: ['IdentityVerification.Completed'],
      external_ref: 'crm-1',
    },
    broken: (v) => [
      ['a 51-character name', { ...v, webhook_name: 'n'.repeat(51) }, 'webhook_name'],
      ['no name', without(v, 'webhook_name'), 'webhook_name'],
      ['an http:// URL', { ...v, webhook_callback_url: 'http://hooks.example.com/provider' }, 'webhook_callback_url'],
      ['empty event_types', { ...v, event_types: [] }, 'event_types'],
    ],
  }),
  fixture({
    name: 'webhook secret record (2.2)',
    schema: webhookSecretRecordSchema,
    valid: { secret: 'c2VjcmV0', date_updated: at },
    broken: (v) => [['no date_updated', without(v, 'date_updated'), 'date_updated']],
  }),
  fixture({
    name: 'credit report request (2.3)',
    schema: creditReportRequestSchema,
    valid: {
      company_id: 'c-1',
      company_number: '01234567',
      company_name: 'Acme',
      country_code: 'GB',
      provider_id: null,
    },
    broken: (v) => [
      ['an empty company_id', { ...v, company_id: '' }, 'company_id'],
      ['no company_id', without(v, 'company_id'), 'company_id'],
      ['a three-letter country code', { ...v, country_code: 'GBR' }, 'country_code'],
    ],
  }),
  fixture({
    name: 'credit report with TooManyResults (3, 4.2 rule 4)',
    schema: creditReportSchema,
    valid: {
      report_id: 'r-1',
      company_id: 'c-1',
      status: 'TooManyResults',
      report: null,
      picklist: [{ provider_id: 'CR-1', company_name: 'Acme', company_number: '1', country_code: 'GB', address: null }],
    },
    broken: (v) => [
      ['no status', without(v, 'status'), 'status'],
      [
        'a picklist entry without provider_id',
        { ...v, picklist: [{ company_name: 'Acme', company_number: '1', country_code: 'GB', address: null }] },
        'provider_id',
      ],
    ],
  }),
  fixture({
    name: 'delivery envelope (6.2)',
    schema: webhookEnvelopeSchema,
    valid: {
      webhook_id: guid(9),
      webhook_name: 'w',
      datetime_sent: at,
      external_ref: null,
      event_type: 'Anything.New',
      data: {},
    },
    broken: (v) => [
      ['no webhook_id', without(v, 'webhook_id'), 'webhook_id'],
      ['no event_type', without(v, 'event_type'), 'event_type'],
      ['data that is not an object', { ...v, data: 'x' }, 'data'],
    ],
  }),
  fixture({
    name: 'event types (4.6)',
    schema: eventTypesResponseSchema,
    valid: eventTypesTree(),
    broken: (v) => [['an entry without event_name', [{ ...v[0], event_types: [{ event_types: [] }] }], 'event_name']],
  }),
  fixture({
    name: 'token response (4.1, assumed)',
    schema: tokenResponseSchema,
    valid: { access_token: 'abc', token_type: 'Bearer', expires_in: 3600 },
    broken: (v) => [['no access_token', without(v, 'access_token'), 'access_token']],
  }),
];

const eventFixtures: Record<keyof typeof eventDataSchemas, Record<string, unknown>> = {
  'BankStatementProcessing.Completed': {
    bank_connection_id: null,
    status: 'Failed',
    message: 'The file could not be read',
    entity_type: 'Case',
    entity_id: guid(5),
    document,
    connected_accounts: [],
  },
  'PayslipProcessing.Completed': { status: 'Complete', message: null, document },
  'SA302Processing.Completed': { status: 'Failed', message: 'Not an SA302', document },
  'TaxOverviewProcessing.Completed': { status: 'Complete', message: null, document },
  'DocumentProcessing.Completed': { status: 'Complete', message: null, document_type: 'Payslip', document },
  'OpenBankingProcessing.Completed': {
    bank_connection_id: guid(6),
    status: 'Connected',
    entity_type: 'case',
    entity_id: guid(5),
    connected_accounts: [account],
  },
  'BankingProcessing.Completed': {
    bank_connection_id: guid(6),
    status: 'Complete',
    entity_type: 'Case',
    entity_id: guid(5),
    connected_accounts: [account],
  },
  'IdentityVerification.Completed': {
    ...identity,
    status: 'Completed',
    date_completed: at,
    verification_status: 'ResubmissionRequested',
  },
  'IdentityVerification.Expired': { ...identity, status: 'Expired', verification_status: 'NotCompleted' },
  'AffordabilityInsights.Completed': {
    request_id: guid(7),
    affordability_insight_endpoint: `/v2/affordability-insights/${guid(7)}`,
    affordability_insight_transactions_endpoint: `/v2/affordability-insights/${guid(7)}/transactions`,
  },
  'IncomeEmployerInsights.Completed': {
    status: 'Failed',
    message: 'Employer not found',
    entity_type: 'Case',
    entity_id: guid(5),
    datetime_requested: at,
    datetime_completed: at,
    income_and_employer_request: { request_id: 'ie-1', verification_endpoint: '/v2/income-employer/ie-1' },
  },
};

for (const [eventType, valid] of Object.entries(eventFixtures)) {
  const [firstField] = Object.keys(valid) as [string];
  fixtures.push(
    fixture({
      name: `${eventType} data (6.6)`,
      schema: eventDataSchemas[eventType as keyof typeof eventDataSchemas],
      valid,
      broken: (v) => [
        [`no ${firstField}`, without(v, firstField), firstField],
        ...(('status' in v ? [['a wrong status value', { ...v, status: 'Bogus' }, 'status']] : []) as Variant[]),
        ...(('verification_status' in v
          ? [['a wrong verification_status', { ...v, verification_status: 'Maybe' }, 'verification_status']]
          : []) as Variant[]),
      ],
    }),
  );
}

describe.each(fixtures)('$name', ({ schema, valid, broken }) => {
  test('the fixture is accepted', () => {
    const result = schema.safeParse(valid);
    expect(result.success ? 'accepted' : describeIssues(result.error)).toBe('accepted');
  });

  test.each(broken(valid))('%s is rejected, naming %#', (_description, value, field) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!).join('\n')).toContain(field);
  });
});

test('the broken variants cover what the issue names', () => {
  const names = fixtures.flatMap((f) => f.broken(f.valid).map(([d]) => d));
  expect(names).toEqual(
    expect.arrayContaining([
      'a 51-character name',
      'an http:// URL',
      'an empty company_id',
      'empty event_types',
      'a wrong status value',
    ]),
  );
});
