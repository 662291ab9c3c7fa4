/**
 * Documents: the bytes, stored once per case (the same bytes uploaded twice are one document),
 * and what the provider made of each upload, linked to the stored document.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { ProviderDocument } from '../provider';
import type { CaseFileAttempt } from './attempt';

export interface StoredDocument {
  document_id: string;
  case_id: string;
  file_name: string;
  document_type: string | null;
  size_bytes: number;
  sha256: string;
}

export interface NewDocument {
  caseId: string;
  fileName: string;
  documentType?: string | null;
  content: Buffer;
}

export async function putDocument(client: PoolClient, doc: NewDocument): Promise<StoredDocument> {
  const sha256 = createHash('sha256').update(doc.content).digest('hex');
  const inserted = await client.query<StoredDocument>(
    `INSERT INTO documents (document_id, case_id, file_name, document_type, size_bytes, sha256)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (case_id, sha256) DO NOTHING
     RETURNING document_id, case_id, file_name, document_type, size_bytes::float8 AS size_bytes, sha256`,
    [randomUUID(), doc.caseId, doc.fileName, doc.documentType ?? null, doc.content.length, sha256],
  );
  const created = inserted.rows[0];
  if (!created) return (await findDocumentBySha(client, doc.caseId, sha256)) as StoredDocument;
  await client.query('INSERT INTO document_contents (document_id, content) VALUES ($1, $2)', [
    created.document_id,
    doc.content,
  ]);
  return created;
}

async function findDocumentBySha(
  client: PoolClient,
  caseId: string,
  sha256: string,
): Promise<StoredDocument | undefined> {
  const found = await client.query<StoredDocument>(
    'SELECT document_id, case_id, file_name, document_type, size_bytes::float8 AS ' +
      'size_bytes, sha256 FROM documents WHERE case_id = $1 AND sha256 = $2',
    [caseId, sha256],
  );
  return found.rows[0];
}

export async function readDocument(
  client: PoolClient,
  documentId: string,
): Promise<(StoredDocument & { content: Buffer }) | undefined> {
  const found = await client.query<StoredDocument & { content: Buffer }>(
    `SELECT d.document_id, d.case_id, d.file_name, d.document_type, d.size_bytes::float8 AS size_bytes, d.sha256,
       c.content
     FROM documents d JOIN document_contents c USING (document_id) WHERE d.document_id = $1`,
    [documentId],
  );
  return found.rows[0];
}

export async function writeProviderDocument(
  client: PoolClient,
  at: CaseFileAttempt,
  documentId: string | null,
  doc: ProviderDocument,
): Promise<void> {
  await client.query(
    `INSERT INTO provider_documents (case_id, attempt_id, provider_document_id, document_id, file_name, document_type,
       status, message, extracted_data)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (attempt_id, provider_document_id) DO UPDATE SET status = EXCLUDED.status, message = EXCLUDED.message,
       document_type = EXCLUDED.document_type, extracted_data = EXCLUDED.extracted_data, recorded_at = now()`,
    [
      at.caseId,
      at.attemptId,
      doc.document_id,
      documentId,
      doc.file_name,
      doc.document_type,
      doc.status,
      doc.message,
      doc.extracted_data === null ? null : JSON.stringify(doc.extracted_data),
    ],
  );
}
