/**
 * The case API client's generated files (packages/case-api-client: openapi.json and src/schema.ts)
 * are what the API's /openapi.json makes now: a route or schema changed without
 * `npm run generate:client` fails here, not in a lender's build.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

test('the generated client matches the document the API serves', () => {
  // A child process: openapi-typescript is an ES module, which jest's CommonJS runtime cannot load.
  const run = () =>
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'cli/generateCaseApiClient.ts', '--check'],
      { cwd: root, encoding: 'utf8', stdio: 'pipe' },
    );
  let answer: string;
  try {
    answer = run();
  } catch (error) {
    answer = String((error as { stdout?: string }).stdout);
  }
  expect(answer).toContain('the case API client is up to date');
});
