/** Documents (spec §4.7; upload assumed). */
import { documentSchema, documentUploadSchema, type DocumentUpload, type ProviderDocument } from '../provider';
import { activityIdempotencyKey } from './activityCall';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';
import { validateInput } from './validateInput';

export function createDocumentActivities(client: ProviderClient) {
  return {
    async uploadDocument(input: DocumentUpload): Promise<ProviderDocument> {
      const body = validateInput(documentUploadSchema, input, 'document upload');
      return client.call({ route: routes.uploadDocument, body, schema: documentSchema, idempotencyKey: activityIdempotencyKey() });
    },

    /** `link` is the `document_endpoint` of an event. */
    async getDocument(input: { link: string }): Promise<ProviderDocument> {
      return readAfterEvent(() => client.follow({ link: input.link, schema: documentSchema }));
    },
  };
}
