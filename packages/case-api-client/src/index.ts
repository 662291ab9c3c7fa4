/**
 * A typed client of the case API: every path, parameter and answer typed from the API's OpenAPI
 * document (src/schema.ts, generated), the calls made by openapi-fetch, and the types of the
 * events the API sends to the LOS (the document's webhooks), so a receiver can narrow on `type`.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema';

export type { components, paths, webhooks };
export type CaseApiClient = Client<paths>;

/** An event as POSTed to the LOS: narrow on `type` to reach its `data`. */
export type CaseEvent = {
  [K in keyof webhooks]: webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : never;
}[keyof webhooks];
export type CaseEventType = CaseEvent['type'];
/** An event as `GET /v1/cases/{caseId}/events` lists it: the event, its id and when the LOS took it. */
export type ListedCaseEvent = components['schemas']['CaseEventList']['events'][number];
export type StartCaseRequest = components['schemas']['StartCaseRequest'];

/** A client for the API at `baseUrl`, authenticated with an API key (origination or operator). */
export function createCaseApiClient(
  baseUrl: string,
  apiKey: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): CaseApiClient {
  return createClient<paths>({
    ...options,
    baseUrl,
    headers: { ...options.headers, authorization: `Bearer ${apiKey}` },
  });
}
