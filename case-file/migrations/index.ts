/** Every migration, in order. A migration never changes once released: add the next number. */
import { sql as caseFile } from './001_caseFile';
import { sql as operationsDesk } from './002_operationsDesk';
import { sql as caseNotifications } from './003_caseNotifications';
import { sql as caseAssignment } from './004_caseAssignment';
import { sql as caseEvents } from './005_caseEvents';
import { sql as appendOnlyAudit } from './006_appendOnlyAudit';
import { sql as queueDeadline } from './007_queueDeadline';
import { sql as purchaseLedger } from './008_purchaseLedger';
import { sql as caseStarts } from './009_caseStarts';
import { sql as caseEventReferences } from './010_caseEventReferences';
import { sql as sealedPayloads } from './011_sealedPayloads';
import { sql as consoleSessionsAndStarters } from './012_consoleSessionsAndStarters';
import { sql as supersededEvidence } from './013_supersededEvidence';
import { sql as stepTransitions } from './014_stepTransitions';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  { version: 1, name: 'case file', sql: caseFile },
  { version: 2, name: 'operations desk', sql: operationsDesk },
  { version: 3, name: 'case notifications', sql: caseNotifications },
  { version: 4, name: 'case assignment', sql: caseAssignment },
  { version: 5, name: 'case events', sql: caseEvents },
  { version: 6, name: 'append-only audit', sql: appendOnlyAudit },
  { version: 7, name: 'queue deadline', sql: queueDeadline },
  { version: 8, name: 'purchase ledger', sql: purchaseLedger },
  { version: 9, name: 'case starts', sql: caseStarts },
  { version: 10, name: 'case event references', sql: caseEventReferences },
  { version: 11, name: 'sealed payloads', sql: sealedPayloads },
  { version: 12, name: 'console sessions and case starters', sql: consoleSessionsAndStarters },
  { version: 13, name: 'superseded evidence', sql: supersededEvidence },
  { version: 14, name: 'step transitions', sql: stepTransitions },
];
