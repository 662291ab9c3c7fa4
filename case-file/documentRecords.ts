/**
 * Documents: the bytes, stored once per case (the same bytes uploaded twice are one document),
 * and what the provider made of each upload, linked to the stored document. The bytes, file names,
 * the provider's message and extracted data are sealed (sealedRows.ts); the SHA-256 stays plain,
 * the key that finds the same bytes again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { ProviderDocument } from '../provider';
import type { CaseFileAttempt } from './attempt';
import type { FieldCipher } from './fieldCipher';
import { openRow, sealJson } from './sealedRows';

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

const documentColumns =
  'document_id, case_id, file_name, document_type, size_bytes::float8 AS size_bytes, sha256, sealed';

export async function putDocument(client: PoolClient, cipher: FieldCipher, doc: NewDocument): Promise<StoredDocument> {
  const sha256 = createHash('sha256').update(doc.content).digest('hex');
  const inserted = await client.query<StoredDocument>(
    `INSERT INTO documents (document_id, case_id, document_type, size_bytes, sha256, sealed)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (case_id, sha256) DO NOTHING
     RETURNING ${documentColumns}`,
    [
      randomUUID(),
      doc.caseId,
      doc.documentType ?? null,
      doc.content.length,
      sha256,
      await sealJson(cipher, { file_name: doc.fileName }),
    ],
  );
  const created = inserted.rows[0];
  if (!created) return (await findDocumentBySha(client, cipher, doc.caseId, sha256)) as StoredDocument;
  await client.query('INSERT INTO document_contents (document_id, sealed) VALUES ($1, $2)', [
    created.document_id,
    await cipher.seal(doc.content),
  ]);
  return openRow(cipher, created);
}

async function findDocumentBySha(
  client: PoolClient,
  cipher: FieldCipher,
  caseId: string,
  sha256: string,
): Promise<StoredDocument | undefined> {
  const found = await client.query<StoredDocument>(
    `SELECT ${documentColumns} FROM documents WHERE case_id = $1 AND sha256 = $2`,
    [caseId, sha256],
  );
  return found.rows[0] && openRow(cipher, found.rows[0]);
}

/** A case's documents, metadata only. */
export async function caseDocuments(
  client: PoolClient,
  cipher: FieldCipher,
  caseId: string,
): Promise<StoredDocument[]> {
  const found = await client.query<StoredDocument>(
    `SELECT ${documentColumns} FROM documents WHERE case_id = $1 ORDER BY uploaded_at`,
    [caseId],
  );
  return Promise.all(found.rows.map((row) => openRow(cipher, row)));
}

export async function readDocument(
  client: PoolClient,
  cipher: FieldCipher,
  documentId: string,
): Promise<(StoredDocument & { content: Buffer }) | undefined> {
  const found = await client.query<StoredDocument & { content: Buffer | null; content_sealed: Buffer | null }>(
    `SELECT d.document_id, d.case_id, d.file_name, d.document_type, d.size_bytes::float8 AS size_bytes, d.sha256,
       d.sealed, c.content, c.sealed AS content_sealed
     FROM documents d JOIN document_contents c USING (document_id) WHERE d.document_id = $1`,
    [documentId],
  );
  const row = found.rows[0];
  if (!row) return undefined;
  const { content, content_sealed, ...document } = await openRow(cipher, row);
  return { ...document, content: content_sealed ? await cipher.open(content_sealed) : Buffer.from(content ?? []) };
}

export async function writeProviderDocument(
  client: PoolClient,
  cipher: FieldCipher,
  at: CaseFileAttempt,
  documentId: string | null,
  doc: ProviderDocument,
): Promise<void> {
  const sealed = await sealJson(cipher, {
    file_name: doc.file_name,
    message: doc.message,
    extracted_data: doc.extracted_data,
  });
  await client.query(
    `INSERT INTO provider_documents (case_id, attempt_id, provider_document_id, document_id, document_type, status,
       sealed)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (attempt_id, provider_document_id) DO UPDATE SET status = EXCLUDED.status,
       document_type = EXCLUDED.document_type, sealed = EXCLUDED.sealed, file_name = NULL, message = NULL,
       extracted_data = NULL, recorded_at = now()`,
    [at.caseId, at.attemptId, doc.document_id, documentId, doc.document_type, doc.status, sealed],
  );
}
