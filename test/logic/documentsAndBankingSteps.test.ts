/**
 * The documents and banking steps' decisions, with the provider's answers stubbed and their events
 * signalled as the resource workflows would: one outcome per document, a refused one needing
 * attention with the provider's message, documents not processed by the deadline expiring the step
 * by name, and a bank connection nobody completes expiring with its link kept.
 */
import { randomUUID } from 'node:crypto';
import type { Duration } from '@temporalio/common';
import { waitForStatus } from '../../cli/watchStatus';
import { stepStatusQuery } from '../../client/stepMessages';
import { bankingWorkflow } from '../../workflows/bankingWorkflow';
import { documentsWorkflow, type DocumentOutcome } from '../../workflows/documentsWorkflow';
import { startJourneyLogic, type JourneyLogic } from '../support/journeyLogic';

let logic: JourneyLogic;
beforeAll(async () => {
  logic = await startJourneyLogic({
    uploadDocumentAndSubscribe: async ({ document }) => ({
      case_file: null,
      document_id: document.document_id,
      file_name: document.file_name,
      document_type: null,
      status: 'Processing',
      message: null,
    }),
    createOpenBankingConnectionAndSubscribe: async ({ caseId }) => ({
      bank_connection_id: `conn-${caseId}`,
      entity_type: 'case',
      entity_id: caseId,
      status: 'Pending',
      connection_link: `https://bank.example/${caseId}`,
    }),
  });
});
afterAll(async () => {
  await logic?.stop();
});

const documents = (...names: string[]) => names.map((file_name) => ({ document_id: randomUUID(), file_name }));

function startDocuments(files: { document_id: string; file_name: string }[], deadline: Duration) {
  const caseId = randomUUID();
  return logic.env.client.workflow.start(documentsWorkflow, {
    workflowId: `documents/${caseId}`,
    taskQueue: logic.taskQueue,
    args: [{ caseId, documents: files, deadline }],
  });
}

test('one outcome per document: a refused one needs attention with the provider message', async () => {
  const [payslip, blurred] = documents('payslip.pdf', 'blurred.jpg');
  const step = await startDocuments([payslip!, blurred!], '20 seconds');
  await waitForStatus(step, stepStatusQuery, (s) => s.state === 'waiting');
  const processed = (file: { document_id: string }, status: string, message: string | null) =>
    logic.deliver(step.workflowId, { kind: 'document', id: file.document_id }, 'DocumentProcessing.Completed', {
      status,
      message,
      document_type: 'Payslip',
      document: { document_endpoint: `https://provider.example/v2/documents/${file.document_id}` },
    });
  await processed(payslip!, 'Complete', null);
  await processed(blurred!, 'Failed', 'the image is unreadable');
  const outcome = await step.result();
  expect(outcome).toMatchObject({ state: 'needs_attention', reason: 'blurred.jpg: the image is unreadable' });
  const outcomes = (outcome.detail as { documents: DocumentOutcome[] }).documents;
  expect(outcomes.map((d) => [d.file_name, d.status])).toEqual([
    ['payslip.pdf', 'Complete'],
    ['blurred.jpg', 'Failed'],
  ]);
});

test('documents not processed by the deadline expire the step, naming them', async () => {
  const step = await startDocuments(documents('lost.pdf', 'also-lost.pdf'), '1 second');
  expect(await step.result()).toMatchObject({
    state: 'expired',
    reason: 'not processed within 1 second: lost.pdf, also-lost.pdf',
  });
});

test('a bank connection nobody completes expires the step, keeping the connection and its link', async () => {
  const caseId = randomUUID();
  const step = await logic.env.client.workflow.start(bankingWorkflow, {
    workflowId: `banking/${caseId}`,
    taskQueue: logic.taskQueue,
    args: [{ caseId, method: 'open_banking', deadline: '1 second' }],
  });
  expect(await step.result()).toMatchObject({
    state: 'expired',
    reason: 'no banking outcome within 1 second',
    providerIds: { bank_connection_id: `conn-${caseId}` },
    detail: { connectionLink: `https://bank.example/${caseId}` },
  });
});
