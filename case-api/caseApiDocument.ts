/** The document served at `/openapi.json`: the routes, and the events sent to the LOS as webhooks. */
import { caseEventWebhooks } from './caseEventSchemas';
import { caseRoutes } from './caseRoutes';
import { openApiDocument } from './openApiDocument';

export const API_VERSION = '1.0.0';

export const caseApiDocument = () => openApiDocument(caseRoutes, API_VERSION, caseEventWebhooks);
