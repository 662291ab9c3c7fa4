/**
 * A document put in the case file as `journey upload` puts it, and the reference a journey input
 * (or a documents step) names it by: journeys carry a document's id, never its bytes.
 */
import type { CaseFileStore } from '../../case-file/store';
import type { DocumentKind } from '../../provider';

export async function storedDocument(
  caseFile: CaseFileStore,
  caseId: string,
  fileName: string,
  text: string,
  documentType?: DocumentKind,
) {
  const stored = await caseFile.putDocument({ caseId, fileName, documentType, content: Buffer.from(text) });
  return { document_id: stored.document_id, file_name: stored.file_name, document_type: documentType };
}
