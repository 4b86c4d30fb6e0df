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
);
