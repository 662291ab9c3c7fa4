/**
 * The lock file serves `npm ci` on every platform: each optional (platform) package a locked
 * package asks for has its own entry. npm leaves one out when the registry lacks that version for
 * that platform, and then `npm ci` refuses the lock everywhere; package.json's `overrides` pin
 * versions for which every platform package exists.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface LockedPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** Where npm would look for `name` from the package at `location`: nested first, then each ancestor. */
function resolves(location: string, name: string): boolean {
  for (let at = location; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
    if (lock.packages[`${at ? `${at}/` : ''}node_modules/${name}`]) return true;
    if (!at) return false;
  }
}

test('every optional platform package of the lock has its entry', () => {
  const missing: string[] = [];
  for (const [location, locked] of Object.entries(lock.packages)) {
    for (const name of Object.keys(locked.optionalDependencies ?? {})) {
      if (!resolves(location, name)) missing.push(`${location || '(root)'} → ${name}`);
    }
  }
  expect(missing).toEqual([]);
});
