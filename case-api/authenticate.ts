/**
 * Bearer API key authentication and role checks. Answers 401 without a known key and 403 when the
 * key's role may not call the route; the key itself is never logged, only its configured name.
 */
import type { NextFunction, Request, Response } from 'express';
import { findApiKey, type ApiKeyEntry, type ApiRole } from './apiKeys';

export interface Caller {
  name: string;
  role: ApiRole;
  /** The key's further roles (apiKeys.ts): `CASE_API_WAIVE_ROLE` among them may waive. */
  roles: string[];
  /** Whether the key sees only the cases it started (apiKeys.ts). */
  scoped: boolean;
}

/** The key name a caller's reads are limited to (the cases it started), or undefined: every case. */
export const ownerOf = (caller: Caller): string | undefined => (caller.scoped ? caller.name : undefined);

export const callerOf = (res: Response): Caller | undefined => res.locals.caller as Caller | undefined;

export function bearerAuthentication(keys: readonly ApiKeyEntry[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S{1,512})$/i.exec(header) : null;
    if (!match) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({ error: 'unauthenticated', message: 'Send an API key: Authorization: Bearer <key>' });
      return;
    }
    const entry = findApiKey(keys, match[1]!);
    if (!entry) {
      res
        .status(401)
        .set('WWW-Authenticate', 'Bearer error="invalid_token"')
        .json({ error: 'invalid_key', message: 'The API key is not known' });
      return;
    }
    res.locals.caller = {
      name: entry.name,
      role: entry.role,
      roles: entry.roles ?? [],
      scoped: entry.scoped ?? false,
    } satisfies Caller;
    next();
  };
}

/** `operator` may do everything `origination` may. */
export const mayCall = (caller: Caller, needed: ApiRole) => caller.role === 'operator' || caller.role === needed;
