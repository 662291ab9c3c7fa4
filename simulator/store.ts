/** The simulator's in-memory state. */
import type { IdentityVerificationRequest, WebhookRecord } from '../provider';
import type { SeededRandom } from './seededRandom';

export interface Person {
  person_id: string;
  first_name: string;
  last_name: string;
  name: string;
}

export interface StoredIdentityVerification extends IdentityVerificationRequest {
  idempotency_key: string | null;
}

export interface WebhookSecretState {
  secret: string;
  date_updated: string;
}

export interface DeliveryLogEntry {
  delivery_id: string;
  batch_id: string;
  webhook_id: string;
  event_type: string;
  callback_url: string;
  signed: boolean;
  sent_at: string;
  outcome: 'pending' | 'delivered' | 'failed';
  status: number | null;
  error: string | null;
}

export interface SimulatorStore {
  random: SeededRandom;
  persons: Map<string, Person>;
  identityVerifications: Map<string, StoredIdentityVerification>;
  webhooks: Map<string, WebhookRecord>;
  webhookSecret: WebhookSecretState | null;
  deliveries: DeliveryLogEntry[];
  stats: { tokenRequests: number; tokensIssued: number; apiCalls: number };
}

export function createStore(random: SeededRandom): SimulatorStore {
  return {
    random,
    persons: new Map(),
    identityVerifications: new Map(),
    webhooks: new Map(),
    webhookSecret: null,
    deliveries: [],
    stats: { tokenRequests: 0, tokensIssued: 0, apiCalls: 0 },
  };
}

const firstNames = ['Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Frances'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Dijkstra', 'Liskov', 'Knuth', 'Allen'];

export function addPerson(store: SimulatorStore, names?: { first_name?: string; last_name?: string }): Person {
  const first_name = names?.first_name ?? store.random.pick(firstNames);
  const last_name = names?.last_name ?? store.random.pick(lastNames);
  const person: Person = { person_id: store.random.guid(), first_name, last_name, name: `${first_name} ${last_name}` };
  store.persons.set(person.person_id, person);
  return person;
}

/** Deterministic seed data: the same seed gives the same people. */
export function seedStore(store: SimulatorStore, people = 4): void {
  for (let i = 0; i < people; i++) addPerson(store);
}
