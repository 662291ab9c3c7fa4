/**
 * Where unrouted deliveries go: a flood of one new event type is spread over UNROUTED_SHARDS
 * workflows an hour, so no workflow takes more than about a sixteenth of it; the same delivery
 * always goes to the same workflow (spooled, drained or replayed, it is deduped there).
 */
import { randomUUID } from 'node:crypto';
import { parseDelivery, resourceWorkflowId } from '../../provider';
import { planDelivery, UNROUTED_SHARDS, workflowIdsOf } from '../../webhook-bridge/routeDelivery';
import { envelope } from '../support/deliveries';

const route = (raw: string, batchId: string | null, receivedAt: string) => {
  const body = JSON.parse(raw) as unknown;
  return workflowIdsOf(planDelivery(parseDelivery(body), body, { batchId, receivedAt }));
};

test('10,000 deliveries of a new event type in one hour: 16 workflows, none taking much more than a sixteenth', () => {
  const perWorkflow = new Map<string, number>();
  for (let n = 0; n < 10_000; n++) {
    const [id] = route(envelope('Brand.Flood', { n }), randomUUID(), '2026-11-21T13:00:00.000Z');
    perWorkflow.set(id!, (perWorkflow.get(id!) ?? 0) + 1);
  }
  expect(perWorkflow.size).toBe(UNROUTED_SHARDS);
  for (const id of perWorkflow.keys()) expect(id).toMatch(/^resource\/unrouted\/Brand\.Flood\/2026-11-21T13\/\d{2}$/);
  expect(Math.max(...perWorkflow.values())).toBeLessThan((10_000 / UNROUTED_SHARDS) * 1.2);
});

test('the same delivery goes to the same workflow; another hour to another one', () => {
  const raw = envelope('Brand.New', { a: 1 });
  const batchId = randomUUID();
  const at = (receivedAt: string) => route(raw, batchId, receivedAt)[0]!;
  expect(at('2026-11-21T13:00:00.000Z')).toBe(at('2026-11-21T13:59:59.999Z'));
  expect(at('2026-11-21T13:59:59.999Z').replace(/T13\//, 'T14/')).toBe(at('2026-11-21T14:00:00.000Z'));
  // A body that is not an envelope, and ids that cannot be read, are sharded alike.
  expect(route('{"not":"an envelope"}', null, '2026-11-21T13:00:00.000Z')[0]).toMatch(
    /^resource\/unrouted\/invalid-envelope\/2026-11-21T13\/\d{2}$/,
  );
  expect(route(envelope('IdentityVerification.Completed', {}), batchId, '2026-11-21T13:00:00.000Z')[0]).toMatch(
    /^resource\/unrouted\/IdentityVerification\.Completed\/2026-11-21T13\/\d{2}$/,
  );
});

test('a 1,000-character event type still makes a workflow id within bounds, whole', () => {
  const [id] = route(envelope(`Poison.${'x'.repeat(993)}`, {}), randomUUID(), '2026-11-21T13:00:00.000Z');
  expect(id!.length).toBeLessThanOrEqual(220);
  expect(id).toMatch(/\/2026-11-21T13\/\d{2}$/);
  expect(resourceWorkflowId({ kind: 'unrouted', id: id!.slice('resource/unrouted/'.length) })).toBe(id);
});
