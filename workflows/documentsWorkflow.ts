/**
 * Documents of a case (spec §1, §6.5, §6.6): upload each (the activity reads the bytes from the
 * case file), then wait for one outcome per document.
 * A document's parent and child deliveries (DocumentProcessing and e.g. PayslipProcessing) are one
 * occurrence: the first settles the outcome. A failed document keeps its link and message.
 */
import type { Duration } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import type { DocumentUploadInput } from '../activities/documentActivities';
import { defaultDeadlines } from '../client/deadlines';
import { polledRecord } from './deliveryData';
import type { ResourceDelivery } from '../client/resourceMessages';
import { providerActivities } from './providerActivities';
import { failingOnProviderError } from './providerFailure';
import type { ResourceInboxes } from './resourceInbox';
import { keyed } from './purchase';
import { trackStep } from './stepStatus';
import type { StepStatus } from '../client/stepMessages';
import { lastEventOf } from './lastEvent';

export interface DocumentsInput {
  caseId: string;
  /** Documents in the case file, by id (`journey upload` put them there). */
  documents: Omit<DocumentUploadInput, 'entity_type' | 'entity_id'>[];
  deadline?: Duration;
  reconcileAfter?: Duration;
  /** The longest wait between two polls that find nothing (deadlines.ts). */
  reconcileBackoffCap?: Duration;
  stepKey?: string;
  /** How long each provider call is retried before the step fails. */
  callBudget?: Duration;
  /** The need's key (purchase.ts). */
  purchase?: string;
  /** An operator asked for this need to buy anew (purchase.ts). */
  fresh?: boolean;
}

export interface DocumentOutcome {
  document_id: string;
  file_name: string;
  status: 'Processing' | 'Complete' | 'Failed';
  document_type: string | null;
  message: string | null;
  document_endpoint: string | null;
}

export type DocumentsStatus = StepStatus<{ documents: DocumentOutcome[] }>;

const documentEvent = /^(Document|BankStatement|Payslip|SA302|TaxOverview)Processing\.Completed$/;

function settle(outcome: DocumentOutcome, delivery: ResourceDelivery): boolean {
  if (outcome.status !== 'Processing') return false;
  const record = polledRecord<'document'>(delivery);
  if (record) {
    if (record.status === 'Processing') return false;
    Object.assign(outcome, { status: record.status, message: record.message, document_type: record.document_type });
    return true;
  }
  if (!documentEvent.test(delivery.eventType)) return false;
  const data = delivery.data as {
    status?: string;
    message?: string | null;
    document_type?: string;
    document?: { document_endpoint?: string };
  };
  if (data.status !== 'Complete' && data.status !== 'Failed') return false;
  Object.assign(outcome, {
    status: data.status,
    message: data.message ?? null,
    document_type:
      data.document_type ?? outcome.document_type ?? delivery.eventType.replace('Processing.Completed', ''),
    document_endpoint: data.document?.document_endpoint ?? outcome.document_endpoint,
  });
  return true;
}

type Tracker = ReturnType<typeof trackStep<{ documents: DocumentOutcome[] }>>;

export async function documentsWorkflow(input: DocumentsInput): Promise<DocumentsStatus> {
  const outcomes: DocumentOutcome[] = [];
  const tracker: Tracker = trackStep<{ documents: DocumentOutcome[] }>(input.stepKey);
  return failingOnProviderError(tracker, (inboxes) => processDocuments(input, outcomes, tracker, inboxes));
}

async function processDocuments(
  input: DocumentsInput,
  outcomes: DocumentOutcome[],
  { update, finish, spend, providerAnswered }: Tracker,
  inboxes: ResourceInboxes,
): Promise<DocumentsStatus> {
  const provider = providerActivities(input.callBudget, providerAnswered);
  update({ detail: { documents: outcomes } });
  const inbox = inboxes.create((resource, delivery) => {
    const outcome = outcomes.find((o) => o.document_id === resource.id);
    if (!outcome) return;
    if (settle(outcome, delivery)) update({ lastEvent: lastEventOf(delivery), detail: { documents: outcomes } });
  });

  const reconcileAfter = input.reconcileAfter ?? defaultDeadlines.reconcileAfter;
  for (const [index, file] of input.documents.entries()) {
    const document = { ...file, entity_type: 'case' as const, entity_id: input.caseId };
    // Upload and subscribe in one activity.
    const uploaded = await provider.uploadDocumentAndSubscribe({
      document,
      subscription: inbox.subscription(reconcileAfter, input.reconcileBackoffCap),
      ...keyed(input, `document-${index + 1}`),
    });
    const outcome: DocumentOutcome = {
      document_id: uploaded.document_id.toLowerCase(),
      file_name: uploaded.file_name,
      status: 'Processing',
      document_type: uploaded.document_type,
      message: null,
      document_endpoint: null,
    };
    outcomes.push(outcome);
    inbox.track({ kind: 'document', id: outcome.document_id });
    for (const earlier of inbox.of({ kind: 'document', id: outcome.document_id })) settle(outcome, earlier);
  }
  update({
    state: 'waiting',
    providerIds: Object.fromEntries(outcomes.map((o, i) => [`document_id_${i + 1}`, o.document_id])),
    detail: { documents: outcomes },
  });

  const deadline = input.deadline ?? defaultDeadlines.documents;
  const allSettled = await condition(() => outcomes.every((o) => o.status !== 'Processing'), deadline);
  const failed = outcomes.filter((o) => o.status === 'Failed');
  if (!allSettled) {
    const pending = outcomes.filter((o) => o.status === 'Processing').map((o) => o.file_name);
    return finish('expired', `not processed within ${String(deadline)}: ${pending.join(', ')}`, {
      documents: outcomes,
    });
  }
  if (failed.length > 0) {
    // The provider refused these documents: another try uploads them anew.
    spend();
    return finish('needs_attention', failed.map((o) => `${o.file_name}: ${o.message ?? 'failed'}`).join('; '), {
      documents: outcomes,
    });
  }
  return finish('completed', null, { documents: outcomes });
}
