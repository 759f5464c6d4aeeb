// Lint: typescript-eslint's recommended rules on TypeScript, eslint-plugin-svelte's on components,
// formatting left to Prettier (eslint-config-prettier turns off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default ts.config(
  { ignores: ['build/', '.svelte-kit/', 'node_modules/', 'test-results/', 'playwright-report/', 'tests/fixtures/', 'static/', 'data/', '.tmp/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  prettier,
  ...svelte.configs.prettier,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // `_`-prefixed names are deliberately unused (destructuring, callback positions).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Loops that wait on events (`for (;;)` with awaits and breaks) are the house style for walks.
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: { parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig } },
  },
  {
    // The family seam: the server, the dashboard and the routes reach a chain family only through
    // the family table and the chain registry, so a family's internals can change (or a family be
    // added) without touching them. CI fails on a new leak.
    files: ['src/lib/server/**', 'src/lib/dashboard/**', 'src/routes/**', 'src/hooks.server.ts', 'src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/chains/sol/**', '**/chains/evm/**', '**/chains/tron/**', '**/chains/shared/**'],
              message: 'Reach a chain family through $lib/chains/families.ts or $lib/chains/registry.ts (docs/architecture.md, "Chains").',
            },
          ],
        },
      ],
    },
  },
  {
    // Long closures hide state: a walk, a loader or a transport is cut into named parts instead.
    files: ['src/lib/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests read untyped JSON (RPC answers, NDJSON lines) and assert on its shape.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
