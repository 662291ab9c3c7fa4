/**
 * The OpenAPI 3.1 document, generated from the route table's zod schemas (`z.toJSONSchema`, JSON
 * Schema 2020-12, which OpenAPI 3.1 uses as is). Named schemas (`.meta({ id })`) become components.
 */
import { z } from 'zod';
import { documentNoNul } from './nulCharacters';
import { requestIdHeader } from './requestId';
import { openApiPath, type RouteSpec } from './routeSpec';

type JsonSchema = Record<string, unknown>;

/** An event the API sends (OpenAPI 3.1 `webhooks`): its name, what it means, its body. */
export interface WebhookSpec {
  name: string;
  summary: string;
  body: z.ZodType;
}

export function openApiDocument(
  routes: readonly RouteSpec[],
  version: string,
  webhooks: readonly WebhookSpec[] = [],
): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output') => componentRef(schema, io, components);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route, schemaOf);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Verification journeys: case API',
      version,
      description:
        "Start and follow the onboarding journey of a loan applicant's case, and act on it as an operator. " +
        'Authenticate with `Authorization: Bearer <API key>`; keys have the role `origination` (start and ' +
        'read) or `operator` (everything). No string in a request may hold a NUL character (U+0000). A ' +
        'method a path does not have is answered 405 with `Allow`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    paths,
    ...(webhooks.length
      ? { webhooks: Object.fromEntries(webhooks.map((w) => [w.name, webhookOperation(w, schemaOf)])) }
      : {}),
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key' } },
    },
  };
}

function operation(route: RouteSpec, schemaOf: (s: z.ZodType, io: 'input' | 'output') => JsonSchema) {
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    'x-required-role': route.role,
    parameters: [
      ...parameters(route.params, 'path', schemaOf),
      ...parameters(route.query, 'query', schemaOf),
      ...parameters(route.headers, 'header', schemaOf),
    ],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } }
      : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, r]) => [
        status,
        {
          description: r.description,
          headers: requestIdHeaders(route),
          ...(r.schema ? { content: responseContent(r, schemaOf) } : {}),
        },
      ]),
    ),
  };
}

/** JSON by its schema; a route that also answers CSV has it as text/csv too. */
function responseContent(
  response: RouteSpec['responses'][number],
  schemaOf: (s: z.ZodType, io: 'input' | 'output') => JsonSchema,
) {
  const json = { 'application/json': { schema: schemaOf(response.schema!, 'output') } };
  return response.csv ? { ...json, 'text/csv': { schema: { type: 'string' } } } : json;
}

/** Every answer names its request (requestId.ts); an operator action's audit entry carries that id. */
function requestIdHeaders(route: RouteSpec) {
  const idempotent = route.idempotent
    ? ` Sent with an Idempotency-Key: \`${route.idempotent}/<key>\`, the same for every repeat.`
    : '';
  const audited = route.audited
    ? ' The audit entry of the action (GET /v1/cases/{caseId}/timeline) carries it as requestId, refused or accepted.'
    : '';
  const description = `This request's id (\`req_<uuid>\`).${idempotent}${audited}`;
  return { [requestIdHeader]: { description, required: true, schema: { type: 'string' } } };
}

/** A webhook as the LOS receives it: a signed POST (Standard Webhooks headers) that it answers with a 2xx. */
function webhookOperation(webhook: WebhookSpec, schemaOf: (s: z.ZodType, io: 'input' | 'output') => JsonSchema) {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    post: {
      operationId: webhook.name.replace(/[^A-Za-z]+(.)/g, (_, c: string) => c.toUpperCase()),
      summary: webhook.summary,
      description:
        'Sent to CASE_EVENTS_URL in the Standard Webhooks format; anything but a 2xx is tried ' +
        'again with backoff for up to 7 days. Dedupe on `webhook-id`; `GET ' +
        '/v1/cases/{caseId}/events` lists the events a receiver missed.',
      parameters: [
        header('webhook-id', "The event's id: the same on every retry"),
        header('webhook-timestamp', 'Unix seconds of this send attempt'),
        header(
          'webhook-signature',
          '`v1,<Base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` with the shared CASE_EVENTS_SECRET',
        ),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(webhook.body, 'output') } } },
      responses: {
        '2XX': { description: 'Taken (also for a duplicate)' },
        default: { description: 'Not taken: sent again later' },
      },
    },
  };
}

function parameters(
  shape: z.ZodObject | undefined,
  where: 'path' | 'query' | 'header',
  schemaOf: (s: z.ZodType, io: 'input' | 'output') => JsonSchema,
) {
  if (!shape) return [];
  return Object.entries(shape.shape).map(([name, schema]) => {
    const json = schemaOf(schema as z.ZodType, 'input');
    const { description, ...rest } = json;
    return {
      name,
      in: where,
      required: where === 'path' || !(schema as z.ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** A named schema becomes `#/components/schemas/<id>` (its own nested named schemas too); others inline. */
function componentRef(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline' });
  // Nested named schemas come out as `#/$defs/<id>`; in the document they live under components.
  const linked = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
  const json = io === 'input' ? documentNoNul(linked) : linked;
  const { $schema: _dialect, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [id, def] of Object.entries($defs ?? {})) components[id] ??= def;
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) return rest;
  const { id: _id, ...body } = rest;
  components[id] ??= body;
  return { $ref: `#/components/schemas/${id}` };
}
