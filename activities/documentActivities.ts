/** Documents (spec §4.7; upload assumed). */
import { documentSchema, documentUploadSchema, type DocumentUpload, type ProviderDocument } from '../provider';
import type { ProviderClient } from './providerClient';
import { routes } from './routes';
import { validateInput } from './validateInput';

export function createDocumentActivities(client: ProviderClient) {
  return {
    async uploadDocument(input: DocumentUpload): Promise<ProviderDocument> {
      return client.call({ route: routes.uploadDocument, body: validateInput(documentUploadSchema, input, 'document upload'), schema: documentSchema });
    },

    /** `link` is the `document_endpoint` of an event. */
    async getDocument(input: { link: string }): Promise<ProviderDocument> {
      return client.follow({ link: input.link, schema: documentSchema });
    },
  };
}
