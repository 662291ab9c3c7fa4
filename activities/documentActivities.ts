/**
 * Documents (spec §4.7; upload assumed). A journey names a document by its id in the case file
 * (`journey upload` put the bytes there); the upload activity reads the bytes from the case file,
 * so no history ever holds them.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { CaseFileStore } from '../case-file/store';
import type { ProviderDocumentSummary } from '../case-file/summaries';
import { documentKindSchema, documentSchema, entityTypeSchema, type ProviderDocument } from '../provider';
import { idempotencyKeyFor } from './activityCall';
import { caseFileAttempt, caseFileRef } from './caseFileAttempt';
import type { ProviderClient } from './providerClient';
import { readAfterEvent } from './readAfterEvent';
import { routes } from './routes';
import { validateInput } from './validateInput';

export const DOCUMENT_NOT_IN_CASE_FILE = 'DocumentNotInCaseFile';

export const documentUploadInputSchema = z.object({
  entity_type: entityTypeSchema,
  entity_id: z.string().min(1),
  document_id: z.uuid({ error: 'document_id must be the id `journey upload` printed' }),
  file_name: z.string().min(1).max(255),
  document_type: documentKindSchema.nullable().optional(),
});

export type DocumentUploadInput = z.input<typeof documentUploadInputSchema>;

export function createDocumentActivities(client: ProviderClient, caseFile: CaseFileStore) {
  /** The stored document the upload names, and its bytes. */
  const contentOf = async (
    input: z.output<typeof documentUploadInputSchema>,
  ): Promise<{ documentId: string; content: Buffer }> => {
    const stored = await caseFile.readDocument(input.document_id);
    if (!stored || stored.case_id !== input.entity_id) {
      throw ApplicationFailure.create({
        type: DOCUMENT_NOT_IN_CASE_FILE,
        message: `document ${input.document_id} is not in the case file of ${input.entity_id}`,
        nonRetryable: true,
      });
    }
    return { documentId: stored.document_id, content: stored.content };
  };

  /** What the provider holds goes to the case file; the history gets the summary. */
  const recorded = async (
    caseId: string,
    documentId: string,
    doc: ProviderDocument,
  ): Promise<ProviderDocumentSummary> => {
    const at = caseFileAttempt(caseId);
    await caseFile.writeProviderDocument(at, documentId, doc);
    const { document_id, file_name, document_type, status, message } = doc;
    return {
      case_file: caseFileRef(at, 'provider_document', document_id),
      document_id,
      file_name,
      document_type,
      status,
      message,
    };
  };

  return {
    async uploadDocument(input: DocumentUploadInput, idempotencyKey?: string): Promise<ProviderDocumentSummary> {
      const valid = validateInput(documentUploadInputSchema, input, 'document upload');
      const { documentId, content } = await contentOf(valid);
      const body = {
        entity_type: valid.entity_type,
        entity_id: valid.entity_id,
        file_name: valid.file_name,
        document_type: valid.document_type,
        content_base64: content.toString('base64'),
      };
      const uploaded = await client.call({
        route: routes.uploadDocument,
        body,
        schema: documentSchema,
        idempotencyKey: idempotencyKeyFor(idempotencyKey),
      });
      return recorded(valid.entity_id, documentId, uploaded);
    },

    /** A document an upload whose answer was lost made (activities/purchaseFinders.ts): read and recorded. */
    async readUploadedDocument(
      input: DocumentUploadInput,
      providerDocumentId: string,
    ): Promise<ProviderDocumentSummary> {
      const valid = validateInput(documentUploadInputSchema, input, 'document upload');
      const read = await client.call({
        route: routes.document,
        params: { documentId: providerDocumentId },
        schema: documentSchema,
      });
      return recorded(valid.entity_id, valid.document_id, read);
    },

    /** `link` is the `document_endpoint` of an event. */
    async getDocument(input: { link: string }): Promise<ProviderDocument> {
      return readAfterEvent(() => client.follow({ link: input.link, schema: documentSchema }));
    },
  };
}
