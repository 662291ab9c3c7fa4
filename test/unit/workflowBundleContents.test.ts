/**
 * What the workflow bundle the tests and workers run holds (bundled as the deployed worker's is,
 * worker/workflowBundle.ts).
 *
 * - The worker preloads the workflows' modules: it evaluates them once and every workflow it runs
 *   shares them, so none may keep state of its own (test/support/moduleState.ts says what passes).
 * - No zod: the workflows rely on the checks done before them instead (workflows/deliveryData.ts;
 *   the journey's input is parsed by every client with client/journeyInput.ts), so a rule
 *   tightened later never changes the replay of a workflow that started under the old one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../config/projectRoot';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { moduleStateOf } from '../support/moduleState';

function bundleCode(): string {
  const option = testWorkflowBundle();
  if (!('codePath' in option)) throw new Error('the test bundle is a file (test/setup/globalSetup.ts)');
  return readFileSync(option.codePath, 'utf8');
}

// webpack names each module by its path, at the start of a line: /***/ "./workflows/index.ts"
const bundledModules = (code = bundleCode()): string[] =>
  [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) => m[1] as string);

/** The project's own modules in the bundle (`./workflows/journeyPlan.ts`). */
const projectModules = (code = bundleCode()) =>
  bundledModules(code).filter((m) => !m.startsWith('./node_modules/') && m.endsWith('.ts'));

test('the workflow bundle holds no zod, and no provider module that builds schemas', () => {
  const modules = bundledModules();
  expect(modules).toContain('./workflows/index.ts');
  expect(modules.filter((m) => m.includes('node_modules/zod/'))).toEqual([]);
  // Only the provider's schema-free modules: the others (and the index, which loads them all) build zod schemas.
  expect(modules.filter((m) => m.startsWith('./provider/')).sort()).toEqual([
    './provider/boundedId.ts',
    './provider/creditReportConstants.ts',
    './provider/documentStatusWords.ts',
    './provider/resourceWorkflowId.ts',
  ]);
});

test('the bundle preloads the workflows, and with them every module they import', () => {
  const code = bundleCode();
  const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code)?.[1] ?? '';
  expect(preload).toContain('"./workflows/index.ts"');
});

test("no module of the project's in the workflow bundle keeps state of its own", () => {
  const modules = projectModules();
  expect(modules).toEqual(expect.arrayContaining(['./workflows/onboardCaseWorkflow.ts', './client/journeyNames.ts']));
  const state = modules.flatMap((module) =>
    moduleStateOf(readFileSync(path.join(projectRoot, module), 'utf8')).map((problem) => `${module}:${problem}`),
  );
  expect(state).toEqual([]);
});

describe('what counts as state of its own', () => {
  const problems = (source: string) => moduleStateOf(source).map((p) => p.replace(/^\d+: /, ''));

  test('a let, a var, a collection to fill, an empty literal, a stateful pattern: refused', () => {
    expect(
      problems(`
        let count = 0;
        var seen = 1;
        const inboxes: string[] = [];
        const byId = new Map<string, number>();
        const settings = {};
        const words = /a/g;
        class Registry { static entries = 0; }
      `),
    ).toEqual([
      'count: a let or var at module level',
      'seen: a let or var at module level',
      'inboxes: an empty literal',
      'byId: a new Map',
      'settings: an empty literal',
      'words: a regular expression with state (g or y)',
      'static entries of class Registry is not readonly',
    ]);
  });

  test('what can change however it is declared, nested, exported or static: refused', () => {
    expect(
      problems(`
        const next = (() => { let n = 0; return () => n++; })();
        const bare = Object.create(null);
        const copied = Array.from(source);
        const pattern = new RegExp('a', 'g');
        const global = new globalThis.Map();
        const table: Readonly<Record<string, string[]>> = { a: [] };
        export const byId = { seen: new Set<string>() };
        class Cache { static readonly entries = new Map(); }
      `),
    ).toEqual([
      'next: a function called where it is defined, whose closure it keeps',
      'bare: Object.create(…)',
      'copied: Array.from(…)',
      'pattern: a new RegExp',
      'global: a new Map',
      'table: an empty literal',
      'byId: a new Set',
      'static entries of class Cache: a new Map',
    ]);
  });

  test('a literal nobody exports and nothing makes readonly: refused', () => {
    expect(problems('const waits = [1, 2];')).toEqual(['waits: a literal neither exported nor readonly']);
  });

  test('constants: allowed', () => {
    expect(
      problems(`
        export const routes = { a: '/a' };
        const waits = [1, 2] as const;
        const states: readonly string[] = ['running'];
        const table: Readonly<Record<string, number>> = { a: 1 };
        const outcome = /^Document$/;
        const proxy = proxyActivities({ startToCloseTimeout: '1 minute' });
        class Inbox { static readonly kind = 'idv'; private items: string[] = []; }
        function collect() { const local: string[] = []; return local; }
        const fresh = () => new Map<string, number>();
        for (const [type, workflow] of Object.entries(workflows)) setWorkflowOptions(options, workflow);
      `),
    ).toEqual([]);
  });
});
