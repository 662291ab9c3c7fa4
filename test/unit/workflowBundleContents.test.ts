/**
 * Every workflow run evaluates the workflow bundle's modules again (the SDK's reused V8
 * context still evaluates the module graph per run), so whatever the bundle holds, each run of
 * every workflow type pays for. zod and the provider's schemas cost a third of the workflow
 * thread's CPU; workflows rely on the checks done before them instead (workflows/deliveryData.ts;
 * the journey's input is parsed by every client with client/journeyInput.ts). This holds the bundle
 * the tests and workers run to that.
 */
import { readFileSync } from 'node:fs';
import { testWorkflowBundle } from '../setup/testEnvironment';

function bundledModules(): string[] {
  const option = testWorkflowBundle();
  if (!('codePath' in option)) throw new Error('the test bundle is a file (test/setup/globalSetup.ts)');
  const code = readFileSync(option.codePath, 'utf8');
  // webpack names each module by its path, at the start of a line: /***/ "./workflows/index.ts"
  return [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) => m[1] as string);
}

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
