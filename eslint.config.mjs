// The linter: typescript-eslint's recommended rules over the whole tree. Layout is prettier's
// business (`npm run format`); the one layout rule here is the line length prettier cannot keep,
// that of comments (it leaves them as written): 120 characters, as prettier's printWidth.
import js from '@eslint/js';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['node_modules/', '**/dist/', '.tools/', '.data/', 'packages/case-api-client/src/schema.ts'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // `const { omitted, ...kept } = value` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    // The operator CLI loads each command's modules when the command runs, so that `--help` and a
    // usage error answer at once; its bin runs under tsx's CommonJS hook, which serves require() only.
    files: ['cli/journeyBin.cjs', 'cli/journey.ts', 'cli/journeyProgram.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // jest loads its configuration, the list of which test runs where and its sequencer as CommonJS.
    files: ['jest.config.js', 'test/setup/testRuns.js', 'test/setup/longSuitesFirst.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
