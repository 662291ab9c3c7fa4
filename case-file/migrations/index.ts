/** Every migration, in order. A migration never changes once released: add the next number. */
import { sql as caseFile } from './001_caseFile';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [{ version: 1, name: 'case file', sql: caseFile }];
