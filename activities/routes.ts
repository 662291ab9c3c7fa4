/**
 * Every provider path, in one table (docs/provider-contract.md §4). Paths the spec shows are marked `spec`; the
 * others are assumptions listed in docs/provider-assumptions.md. The simulator serves the same
 * table, so a real integration changes paths here and nowhere else.
 *
 * `pattern` uses express-style `:params`; `path()` fills them in, URL-encoded.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  pattern: string;
  source: 'spec' | 'assumed';
}

const route = (method: HttpMethod, pattern: string, source: Route['source']): Route => ({ method, pattern, source });

export const routes = {
  /** §4.1 is at {auth_url}/token; the others are under {base_url}. */
  token: route('POST', '/token', 'spec'),
  createIdentityVerification: route('POST', '/v2/persons/:personId/identity-verifications', 'assumed'),
  /** Path shape from §4.4/§6.6 rule 7 (the identity_request_endpoint link); method assumed. */
  listIdentityVerifications: route('GET', '/v2/persons/:personId/identity-verifications', 'spec'),
  identityVerificationResult: route('GET', '/v2/identity/:requestId', 'spec'),
  requestCreditReport: route('POST', '/v2/company-credit-reports', 'assumed'),
  resolveCreditReportPicklist: route('POST', '/v2/company-credit-reports/picklist', 'spec'),
  creditReport: route('GET', '/v2/company-credit-reports/:reportId', 'assumed'),
  uploadDocument: route('POST', '/v2/documents', 'assumed'),
  document: route('GET', '/v2/documents/:documentId', 'spec'),
  createOpenBankingConnection: route('POST', '/v2/cases/:caseId/open-banking-connections', 'assumed'),
  bankAccount: route('GET', '/v2/bankaccounts/:accountConnectionId', 'spec'),
  bankAccountBalances: route('GET', '/v2/bankaccounts/:accountConnectionId/balances', 'spec'),
  bankAccountTransactions: route('GET', '/v2/bankaccounts/:accountConnectionId/transactions', 'spec'),
  requestAffordabilityInsight: route('POST', '/v2/cases/:caseId/affordability-insights', 'assumed'),
  affordabilityInsight: route('GET', '/v2/affordability-insights/:requestId', 'spec'),
  affordabilityInsightTransactions: route('GET', '/v2/affordability-insights/:requestId/transactions', 'spec'),
  requestIncomeEmployer: route('POST', '/v2/cases/:caseId/income-employer', 'assumed'),
  incomeEmployer: route('GET', '/v2/income-employer/:requestId', 'spec'),
  createWebhook: route('POST', '/webhooks', 'assumed'),
  updateWebhook: route('PUT', '/webhooks/:webhookId', 'assumed'),
  eventTypes: route('GET', '/webhooks/event-types', 'assumed'),
  createWebhookSecret: route('POST', '/webhooks/secrets', 'assumed'),
  readWebhookSecret: route('GET', '/webhooks/secrets', 'spec'),
  rotateWebhookSecret: route('PATCH', '/webhooks/secrets', 'assumed'),
  deleteWebhookSecret: route('DELETE', '/webhooks/secrets', 'assumed'),
} as const;

/** Query parameter names of the list call (§4.4 says they exist, not what they are called). */
export const identityVerificationListQuery = {
  excludeIncomplete: 'exclude_incomplete',
  verificationStatus: 'verification_status',
} as const;

export function path(r: Route, params: Record<string, string> = {}): string {
  return r.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`route ${r.pattern} needs parameter ${name}`);
    return encodeURIComponent(value);
  });
}
