/**
 * Which deliveries settle a resource: its terminal event arrived, valid, so the resource workflow
 * stops polling the provider (before, every resource asked once more after its webhook had already
 * settled it: one wasted provider read and some ten history events per resource). Case banking and
 * unrouted resources are never polled: the provider has no record to read for them.
 */
import type { ResourceKind } from '../provider';
import type { ResourceDelivery } from '../client/resourceMessages';

const documentOutcome = /^(Document|BankStatement|Payslip|SA302|TaxOverview)Processing\.Completed$/;

const terminalEvents: Readonly<Partial<Record<ResourceKind, (delivery: ResourceDelivery) => boolean>>> = {
  idv: (d) => d.eventType === 'IdentityVerification.Completed' || d.eventType === 'IdentityVerification.Expired',
  affordability: (d) => d.eventType === 'AffordabilityInsights.Completed',
  'income-employer': (d) => d.eventType === 'IncomeEmployerInsights.Completed',
  document: (d) => documentOutcome.test(d.eventType) && (d.data.status === 'Complete' || d.data.status === 'Failed'),
};

export function settlesResource(kind: ResourceKind, delivery: ResourceDelivery): boolean {
  if (delivery.parse !== 'known') return false;
  return terminalEvents[kind]?.(delivery) ?? false;
}

export function pollable(kind: ResourceKind): boolean {
  return kind !== 'case-banking' && kind !== 'unrouted';
}
