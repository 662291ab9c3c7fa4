/**
 * Documents (spec §1, §4.7, §6.5, §6.6): upload, classification (bank statement, payslip, SA302,
 * tax overview, or unreadable), extraction that succeeds or fails with a message, and the
 * parent/child deliveries of each processed document.
 */
import express, { type Router } from 'express';
import { path, routes } from '../activities/routes';
import { documentUploadSchema, isCaseEntity, type DocumentKind } from '../provider';
import { connectedAccount, generateAccount } from './accountGenerator';
import { sendError, sendValidationError } from './apiErrors';
import { recordCreation } from './idempotency';
import type { Jobs } from './jobs';
import type { SimulatorStore, StoredDocument } from './store';
import type { Occurrence, WebhookDispatcher } from './webhookDispatcher';

const CHILD_EVENT: Record<DocumentKind, string> = {
  BankStatement: 'BankStatementProcessing.Completed',
  Payslip: 'PayslipProcessing.Completed',
  SA302: 'SA302Processing.Completed',
  TaxOverview: 'TaxOverviewProcessing.Completed',
};

/** Recognition by content, as the provider does for files the user did not categorise. */
export function classify(text: string): DocumentKind | null {
  const upper = text.toUpperCase();
  if (upper.includes('BANK STATEMENT')) return 'BankStatement';
  if (upper.includes('PAYSLIP')) return 'Payslip';
  if (upper.includes('SA302')) return 'SA302';
  if (upper.includes('TAX OVERVIEW') || upper.includes('TAX YEAR OVERVIEW')) return 'TaxOverview';
  return null;
}

export interface DocumentsApiOptions {
  baseUrl: () => string;
  jobs: Jobs;
  dispatcher: WebhookDispatcher;
}

function publicDocument(d: StoredDocument) {
  const { content: _content, ...document } = d;
  return document;
}

export function createDocumentsApi(store: SimulatorStore, options: DocumentsApiOptions): Router {
  const router = express.Router();

  router.post(routes.uploadDocument.pattern, express.json({ limit: '10mb' }), (req, res) => {
    const body = documentUploadSchema.safeParse(req.body);
    if (!body.success) return sendValidationError(res, body.error);
    if (!isCaseEntity(body.data.entity_type))
      return sendError(res, 422, 'unprocessable', 'Documents belong to a case (entity_type case)');
    const owner = store.cases.get(body.data.entity_id);
    if (!owner) return sendError(res, 404, 'not_found', `No case ${body.data.entity_id}`);
    const document: StoredDocument = {
      document_id: store.random.guid(),
      file_name: body.data.file_name,
      document_type: body.data.document_type ?? null,
      status: 'Processing',
      message: null,
      entity_type: owner.entity_type,
      entity_id: owner.case_id,
      extracted_data: null,
      content: Buffer.from(body.data.content_base64, 'base64').toString('utf8'),
    };
    store.documents.set(document.document_id, document);
    recordCreation(store, res, document.document_id);
    options.jobs.schedule(() => processDocument(store, options, document));
    res.status(202).json(publicDocument(document));
  });

  router.get(routes.document.pattern, (req, res) => {
    const document = store.documents.get(req.params.documentId as string);
    if (!document) return sendError(res, 404, 'not_found', `No document ${req.params.documentId}`);
    res.json(publicDocument(document));
  });

  return router;
}

/** After a restart from saved state: documents still processing are processed (their job was lost with the process). */
export function resumeDocumentProcessing(store: SimulatorStore, options: DocumentsApiOptions): void {
  for (const document of store.documents.values()) {
    if (document.status === 'Processing') options.jobs.schedule(() => processDocument(store, options, document));
  }
}

async function processDocument(
  store: SimulatorStore,
  options: DocumentsApiOptions,
  document: StoredDocument,
): Promise<void> {
  const baseUrl = options.baseUrl();
  const kind = (document.document_type as DocumentKind | null) ?? classify(document.content);
  const ref = {
    document_id: document.document_id,
    document_endpoint: `${baseUrl}${path(routes.document, { documentId: document.document_id })}`,
    file_name: document.file_name,
  };
  document.document_type = kind;

  if (!kind) {
    Object.assign(document, { status: 'Failed', message: 'The file could not be read or classified' });
    await options.dispatcher.emit('DocumentProcessing.Completed', {
      'DocumentProcessing.Completed': {
        status: 'Failed',
        message: document.message,
        document_type: 'Unknown',
        document: ref,
      },
    });
    return;
  }
  const failed = document.content.toUpperCase().includes('CORRUPT');
  if (failed)
    Object.assign(document, {
      status: 'Failed',
      message: `Data extraction failed: the ${kind} is damaged or incomplete`,
    });
  else Object.assign(document, { status: 'Complete', message: null, extracted_data: { pages: 1, kind } });

  const status = document.status as 'Complete' | 'Failed';
  const occurrence: Occurrence = {
    'DocumentProcessing.Completed': { status, message: document.message, document_type: kind, document: ref },
  };
  if (kind === 'BankStatement') {
    const accounts = failed
      ? []
      : [generateAccount(store, document.entity_id), generateAccount(store, document.entity_id)].map((a) =>
          connectedAccount(baseUrl, a),
        );
    const banking = {
      bank_connection_id: failed ? null : store.random.guid(),
      entity_type: document.entity_type,
      entity_id: document.entity_id,
      connected_accounts: accounts,
    };
    occurrence[CHILD_EVENT.BankStatement] = { ...banking, status, message: document.message, document: ref };
    occurrence['BankingProcessing.Completed'] = { ...banking, status: failed ? 'Rejected' : 'Complete' };
  } else {
    occurrence[CHILD_EVENT[kind]] = { status, message: document.message, document: ref };
  }
  await options.dispatcher.emit(CHILD_EVENT[kind], occurrence);
}
