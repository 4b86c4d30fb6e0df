import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Import boundaries (docs/architecture.md, "Layout"): each folder lists the paths it may never import. */
const outsideOf = (...folders) => folders.flatMap((folder) => [`${folder}/*`, `../${folder}/*`, `../../${folder}/*`, `../../../${folder}/*`]);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'test-results/', 'docs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Machines are pure logic: no React, DOM, fetch, storage, nor anything of the app (docs/architecture.md, "The shape"). Of
    // viem only its pure utilities (EIP-55 address checks); its clients and wallet calls stay in src/.
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'viem', message: 'Machines may use viem/utils only (pure helpers); wallet calls live in src/wallet.' }],
          patterns: ['react', 'react-*', 'viem/*', '!viem/utils', ...outsideOf('src', 'server', 'tests')],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'fetch', 'localStorage', 'sessionStorage'],
    },
  },
  {
    // The API's schemas are shared by the app and the server: they stand on zod alone, and on libphonenumber-js for
    // the address's international numbers (API.md: "a number valid for that country").
    files: ['api-schema/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod(/|$)|libphonenumber-js/min$|\\./)', message: 'api-schema depends only on zod, libphonenumber-js/min and its own files.' },
          ],
        },
      ],
    },
  },
  {
    // Components are presentational: props in, callbacks out. They never reach into routes or machines.
    files: ['src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...outsideOf('routes', 'machines', 'server', 'tests')] }],
    },
  },
  {
    // The app and the server meet only in api-schema: neither imports the other.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/components/**', 'src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...outsideOf('server', 'tests')] }] },
  },
  {
    // Scripts (diagrams, openapi, the path tooling in scripts/machineGraph) run outside the test runner: the path
    // tests import them, never the reverse.
    files: ['scripts/**/*.{ts,mts,js,mjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...outsideOf('tests')] }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...outsideOf('src', 'tests', 'machines')] }] },
  },
  {
    // Type-aware rules where a promise left unawaited is a lost write or a step run twice: the server (ledger, ops,
    // chain, routes), the machines, the API's schemas and the scripts. src/ and tests/ stay syntax-only, which keeps
    // `npm run lint` fast.
    files: ['server/**/*.ts', 'machines/**/*.ts', 'api-schema/**/*.ts', 'scripts/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeCheckedOnly],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The point of this block: a promise nobody awaits, one handed where a callback's return is ignored (an
      // event handler, forEach), an await of something that is no promise.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // From strictTypeChecked: `return promise` inside try skips its catch and finally (a lock let go before the
      // write ends); a deprecated call (zod's passthrough) is found before the major version that removes it.
      '@typescript-eslint/return-await': ['error', 'error-handling-correctness-only'],
      '@typescript-eslint/no-deprecated': 'error',
      // Off: fastify plugins and xstate's fromPromise actors are async by contract, with or without an await.
      '@typescript-eslint/require-await': 'off',
      // Off: the server's services are objects of closures typed with method syntax; no `this` is ever lost.
      '@typescript-eslint/unbound-method': 'off',
      // Not taken from strictTypeChecked: no-unnecessary-condition (the checks on RPC and database answers that
      // the types call impossible are kept on purpose), no-misused-spread (strings are spread to count code
      // points), and the stylistic ones (numbers in template strings, void in arrow bodies: hundreds of edits).
    },
  },
  {
    // xstate's `types: { input: {} as Input }` is how a machine's generics are inferred: the rule takes those
    // assertions for needless ones.
    files: ['machines/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
);
