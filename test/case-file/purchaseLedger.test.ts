/**
 * The purchase ledger (case-file/purchaseLedger.ts) and the sightings beside it: an intent is
 * recorded once per call key, a provider id is held by one call only, and what a search for a lost
 * answer reads (unclaimed sightings, open intents) leaves out what any case holds.
 */
import { randomUUID } from 'node:crypto';
import { parseCallKey } from '../../case-file/purchaseLedger';
import type { CaseFileStore } from '../../case-file/store';
import { testCaseFile } from '../setup/testEnvironment';

let store: CaseFileStore;
beforeAll(async () => {
  store = await testCaseFile();
});
afterAll(async () => {
  await store?.close();
});

const keyOf = (caseId: string, step: string, need = 1, call = 'request') => `case/${caseId}/${step}/${need}/${call}`;

test('a call key names case, step (slashes and all), need and call; other keys are not ledgered', () => {
  expect(parseCallKey('case/c-1/identity-verification/p-9/2/resubmission-1')).toEqual({
    callKey: 'case/c-1/identity-verification/p-9/2/resubmission-1',
    caseId: 'c-1',
    step: 'identity-verification/p-9',
    need: 2,
    call: 'resubmission-1',
  });
  expect(parseCallKey('case/c-1/credit-report/1/request')).toMatchObject({ step: 'credit-report', need: 1 });
  expect(parseCallKey('case/c-1/credit-report/x/request')).toBeUndefined();
  expect(parseCallKey('wf-id/run-id/3')).toBeUndefined();
});

test('an intent is recorded once; the id after the call; the row holds state, kind, fresh and the answer', async () => {
  const caseId = randomUUID();
  const callKey = keyOf(caseId, 'credit-report', 2);
  const first = await store.recordPurchaseIntent({ callKey, kind: 'credit-report', subject: 'co-1', fresh: true });
  expect(first.recorded).toBe(true);
  expect(first.purchase).toMatchObject({ case_id: caseId, step: 'credit-report', need: 2, call: 'request' });
  expect(first.purchase).toMatchObject({ state: 'intended', provider_id: null, fresh: true, kind: 'credit-report' });
  const again = await store.recordPurchaseIntent({ callKey, kind: 'credit-report', subject: 'co-1', fresh: false });
  expect(again.recorded).toBe(false);
  expect(again.purchase.intended_at).toEqual(first.purchase.intended_at);
  const bought = await store.recordPurchaseBought(callKey, 'report-1', { report_id: 'report-1' });
  expect(bought).toMatchObject({ state: 'bought', provider_id: 'report-1', answer: { report_id: 'report-1' } });
  expect((await store.purchases(caseId)).map((p) => p.call_key)).toEqual([callKey]);
  expect((await store.evidence(caseId)).purchases).toEqual([expect.objectContaining({ provider_id: 'report-1' })]);
});

test('a second resource bought for one call is recorded beside the first, which the call keeps', async () => {
  const caseId = randomUUID();
  const callKey = keyOf(caseId, 'identity-verification/person-1', 1);
  await store.recordPurchaseIntent({ callKey, kind: 'idv', subject: 'person-1', fresh: false });
  const [first, second] = [`req-${randomUUID()}`, `req-${randomUUID()}`];
  await store.recordPurchaseBought(callKey, first, { request_id: first });
  const kept = await store.recordPurchaseBought(callKey, second, { request_id: second });
  expect(kept).toMatchObject({ call_key: callKey, provider_id: first, answer: { request_id: first } });
  expect((await store.purchases(caseId)).map((p) => [p.call_key, p.state, p.provider_id, p.evidence])).toEqual([
    [callKey, 'bought', first, null],
    [`${callKey}+${second}`, 'bought', second, `bought again: the call had bought ${first} already`],
  ]);
  // The same answer again changes nothing.
  await store.recordPurchaseBought(callKey, first, { request_id: first });
  expect(await store.purchases(caseId)).toHaveLength(2);
});

test('no two calls, of one case or two, hold one resource', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const id = `req-${randomUUID()}`;
  await store.recordPurchaseIntent({
    callKey: keyOf(a, 'affordability'),
    kind: 'affordability',
    subject: a,
    fresh: false,
  });
  await store.recordPurchaseIntent({
    callKey: keyOf(b, 'affordability'),
    kind: 'affordability',
    subject: b,
    fresh: false,
  });
  await store.recordPurchaseBought(keyOf(a, 'affordability'), id, null);
  await expect(store.recordPurchaseBought(keyOf(b, 'affordability'), id, null)).rejects.toThrow(/unique|duplicate/i);
  expect(await store.heldProviderIds('affordability', [id, 'other'])).toEqual(new Set([id]));
});

test('unknown keeps the evidence; a renewed intent starts again; a forgotten one goes', async () => {
  const caseId = randomUUID();
  const callKey = keyOf(caseId, 'banking', 1, 'connection');
  const { purchase } = await store.recordPurchaseIntent({
    callKey,
    kind: 'open-banking',
    subject: caseId,
    fresh: false,
  });
  await store.recordPurchaseUnknown(callKey, 'no banking event naming the case');
  expect(await store.purchase(callKey)).toMatchObject({
    state: 'unknown',
    evidence: 'no banking event naming the case',
  });
  await store.renewPurchaseIntent(callKey);
  const renewed = await store.purchase(callKey);
  expect(renewed).toMatchObject({ state: 'intended', evidence: null });
  expect(renewed!.intended_at.getTime()).toBeGreaterThanOrEqual(purchase.intended_at.getTime());
  await store.renewPurchaseIntent(callKey, { forget: true });
  expect(await store.purchase(callKey)).toBeUndefined();
});

test("a search sees the case's sightings since the intent that nobody holds, and other calls for one person", async () => {
  const caseId = randomUUID();
  const person = `person-${randomUUID()}`;
  const since = new Date(Date.now() - 1_000);
  const [held, free, other] = [randomUUID(), randomUUID(), randomUUID()];
  await store.recordSightings([
    { kind: 'document', provider_id: held, case_id: caseId, file_name: 'payslip.pdf' },
    { kind: 'document', provider_id: free, case_id: caseId.toUpperCase(), file_name: 'payslip.pdf' },
    { kind: 'document', provider_id: other, case_id: caseId, file_name: 'p60.pdf' },
  ]);
  await store.recordPurchaseIntent({
    callKey: keyOf(caseId, 'documents', 1, 'document-1'),
    kind: 'document',
    subject: 'payslip.pdf',
    fresh: false,
  });
  await store.recordPurchaseBought(keyOf(caseId, 'documents', 1, 'document-1'), held, null);
  expect(await store.unclaimedSightings({ kind: 'document', caseId, since, fileName: 'payslip.pdf' })).toEqual([free]);
  expect(await store.unclaimedSightings({ kind: 'document', caseId, since: new Date(Date.now() + 60_000) })).toEqual(
    [],
  );

  const one = await store.recordPurchaseIntent({
    callKey: keyOf(randomUUID(), `identity-verification/${person}`),
    kind: 'idv',
    subject: person,
    fresh: false,
  });
  const two = await store.recordPurchaseIntent({
    callKey: keyOf(randomUUID(), `identity-verification/${person}`),
    kind: 'idv',
    subject: person,
    fresh: false,
  });
  expect(await store.otherOpenIntents(one.purchase)).toEqual([two.purchase.call_key]);
});
