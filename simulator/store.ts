/** The simulator's in-memory state. */
import type {
  AffordabilityInsight,
  BankAccount,
  CreditReport,
  IdentityVerificationRequest,
  IncomeEmployerResult,
  OpenBankingConnectionRequest,
  ProviderDocument,
  WebhookRecord,
} from '../provider';
import type { BankBalances, BankTransactions } from '../provider';
import type { KeyRecord } from './idempotency';
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
  /** Faults injected into this delivery (see faultRates.ts). */
  faults: string[];
  outcome: 'pending' | 'delivered' | 'failed' | 'dropped';
  status: number | null;
  error: string | null;
}

/** A company entity (§2.5): number and country may be missing (rule 1 then answers 422). */
export interface Company {
  company_id: string;
  company_name: string;
  company_number: string | null;
  country_code: string | null;
}

/** An entry of the third-party credit registry that reports are resolved against. */
export interface RegistryEntry {
  provider_id: string;
  company_name: string;
  company_number: string | null;
  country_code: string | null;
  address: string | null;
  credit_score: number;
  credit_limit: number;
}

/** A case (§2.5) and how its asynchronous checks turn out in this simulation. */
export interface Case {
  case_id: string;
  /** How the case appears in payloads; §6.6 rule 6 says both spellings occur. */
  entity_type: 'Case' | 'case';
  income_employer_outcome: 'Complete' | 'Failed';
}

export interface StoredAccount {
  account: BankAccount;
  balances: BankBalances;
  transactions: BankTransactions;
  case_id: string;
}

export interface StoredDocument extends ProviderDocument {
  content: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  at: number;
  /** The status the simulator answered, or, when the answer was lost, the status it would have sent. */
  status: number;
  /** Present (true) when the call was processed but its connection was cut before any byte of the answer. */
  response_lost?: true;
}

/**
 * A scripted fault: the next `times` calls matching method and path pattern get `status`, or,
 * with `response_lost`, are processed and then lose their answer; `latency_ms` delays the answer.
 */
export interface ScriptedFault {
  method: string;
  path: string;
  status?: number;
  retry_after?: string;
  response_lost?: boolean;
  /** A creating call that created something loses its answer (responseLost.ts). */
  creation_answer_lost?: boolean;
  /** The answer is held back this long (the call itself is processed as it arrives). */
  latency_ms?: number;
  times: number;
}

/** A picklist resolution the simulator applied (a replayed or refused one is not recorded). */
export interface PicklistResolutionRecord {
  report_id: string;
  provider_id: string;
  idempotency_key: string | null;
  resolved_at: string;
}

export interface SimulatorStore {
  random: SeededRandom;
  persons: Map<string, Person>;
  companies: Map<string, Company>;
  registry: RegistryEntry[];
  creditReports: Map<string, CreditReport>;
  cases: Map<string, Case>;
  documents: Map<string, StoredDocument>;
  openBankingConnections: Map<string, OpenBankingConnectionRequest>;
  accounts: Map<string, StoredAccount>;
  affordability: Map<string, AffordabilityInsight>;
  incomeEmployer: Map<string, IncomeEmployerResult>;
  requests: RequestLogEntry[];
  faults: ScriptedFault[];
  identityVerifications: Map<string, StoredIdentityVerification>;
  webhooks: Map<string, WebhookRecord>;
  webhookSecret: WebhookSecretState | null;
  deliveries: DeliveryLogEntry[];
  stats: { tokenRequests: number; tokensIssued: number; apiCalls: number };
  /**
   * The `Idempotency-Key` each created resource was created with, by resource id (no entry: created
   * without a key). Kept beside the resources so their API bodies stay the provider's shapes.
   */
  createdWithKey: Map<string, string>;
  picklistResolutions: PicklistResolutionRecord[];
  /** First answers by idempotency scope (client, route, key); see idempotency.ts. */
  idempotencyRecords: Map<string, KeyRecord>;
  /** Creating calls whose client went away before their body was read (not saved: tests wait on it). */
  abandonedCalls: number;
}

export function createStore(random: SeededRandom): SimulatorStore {
  return {
    random,
    persons: new Map(),
    companies: new Map(),
    registry: [],
    creditReports: new Map(),
    cases: new Map(),
    documents: new Map(),
    openBankingConnections: new Map(),
    accounts: new Map(),
    affordability: new Map(),
    incomeEmployer: new Map(),
    requests: [],
    faults: [],
    identityVerifications: new Map(),
    webhooks: new Map(),
    webhookSecret: null,
    deliveries: [],
    stats: { tokenRequests: 0, tokensIssued: 0, apiCalls: 0 },
    createdWithKey: new Map(),
    picklistResolutions: [],
    idempotencyRecords: new Map(),
    abandonedCalls: 0,
  };
}

/** Half the names are not ASCII, so payloads carry raw UTF-8 that signatures must cover byte for byte. */
const firstNames = ['Ada', 'Grace', 'Alan', 'Katherine', 'Søren', 'Zoë', 'José', 'Anaïs'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Gödel', 'Ørsted', 'Erdős', 'Brontë'];

export function addPerson(store: SimulatorStore, names?: { first_name?: string; last_name?: string }): Person {
  const first_name = names?.first_name ?? store.random.pick(firstNames);
  const last_name = names?.last_name ?? store.random.pick(lastNames);
  const person: Person = { person_id: store.random.guid(), first_name, last_name, name: `${first_name} ${last_name}` };
  store.persons.set(person.person_id, person);
  return person;
}

function registryEntry(
  store: SimulatorStore,
  company: Omit<RegistryEntry, 'provider_id' | 'credit_score' | 'credit_limit'>,
): RegistryEntry {
  const entry = {
    ...company,
    provider_id: `CR-${store.random.guid().slice(0, 8).toUpperCase()}`,
    credit_score: Math.floor(300 + store.random.next() * 600),
    credit_limit: Math.floor(store.random.next() * 500) * 1000,
  };
  store.registry.push(entry);
  return entry;
}

export function addCompany(store: SimulatorStore, company: Omit<Company, 'company_id'>, registryCopies = 1): Company {
  const stored: Company = { company_id: store.random.guid(), ...company };
  store.companies.set(stored.company_id, stored);
  // Several registry entries with one number and country make the company ambiguous (rule 4).
  for (let i = 0; i < registryCopies; i++) {
    const suffix = i === 0 ? '' : ` (${['Holdings', 'Trading', 'Group'][i - 1] ?? `No. ${i}`})`;
    registryEntry(store, {
      ...company,
      company_name: `${company.company_name}${suffix}`,
      address: `${i + 1} High Street`,
    });
  }
  return stored;
}

export function addCase(store: SimulatorStore, scenario: Partial<Omit<Case, 'case_id'>> = {}): Case {
  const stored: Case = {
    case_id: store.random.guid(),
    entity_type: scenario.entity_type ?? (store.random.next() < 0.5 ? 'Case' : 'case'),
    income_employer_outcome: scenario.income_employer_outcome ?? 'Complete',
  };
  store.cases.set(stored.case_id, stored);
  return stored;
}

/**
 * Deterministic seed data: the same seed gives the same people, companies and cases. The
 * companies cover rule 1 (complete, no number, no country) and rule 4 (ambiguous); the cases
 * both spellings of entity_type and both income-and-employer outcomes.
 */
export function seedStore(store: SimulatorStore, people = 4): void {
  for (let i = 0; i < people; i++) addPerson(store);
  addCase(store, { entity_type: 'Case' });
  addCase(store, { entity_type: 'case', income_employer_outcome: 'Failed' });
  addCompany(store, { company_name: 'Acme Widgets Ltd', company_number: '01234567', country_code: 'GB' });
  addCompany(store, { company_name: 'Nonumber Trading Ltd', company_number: null, country_code: 'GB' });
  addCompany(store, { company_name: 'Nocountry Services Ltd', company_number: '07654321', country_code: null });
  addCompany(store, { company_name: 'Ambiguous Foods Ltd', company_number: '05555555', country_code: 'GB' }, 3);
  // Last, so the entities above keep their ids: a name in raw UTF-8 for credit report bodies.
  addCompany(store, {
    company_name: 'Société Générale de Café Ørsted SARL',
    company_number: '552120222',
    country_code: 'FR',
  });
}
