// ESLint: eslint's and typescript-eslint's recommended rules (syntax only: no type-checked rules, so a lint run needs
// no program and stays fast), plus "SQL only in stores". Formatting is prettier's job (`.prettierrc`).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// knex builders called with a table name (`db('contacts')`, `trx('contacts')`) and raw SQL (`.raw(`, `.whereRaw(`…)
// belong in a store. Tests, migrations and the simulators/dev tooling write SQL of their own on purpose.
const sqlOutsideStore = [
  {
    selector:
      "CallExpression[callee.type='Identifier'][callee.name=/^(?:db|trx|knex|tx)$/][arguments.0.type=/^(?:Literal|TemplateLiteral)$/]",
    message: "SQL only in stores: move this query into the area's store.ts (or a *Store.ts file).",
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(?:db|trx|knex)$/][arguments.0.type=/^(?:Literal|TemplateLiteral)$/]",
    message: "SQL only in stores: move this query into the area's store.ts (or a *Store.ts file).",
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(?:raw|whereRaw|orWhereRaw|havingRaw|orderByRaw|joinRaw|fromRaw|selectRaw|groupByRaw)$/]",
    message: "SQL only in stores: move this raw SQL into the area's store.ts (or a *Store.ts file).",
  },
  {
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(?:from|into|table|withSchema)$/][callee.object.type='Identifier'][callee.object.name=/^(?:db|trx|knex|tx)$/]",
    message: "SQL only in stores: move this query into the area's store.ts (or a *Store.ts file).",
  },
];

export default defineConfig([
  globalIgnores(['dist/', '.data/', 'node_modules/', 'coverage/', 'clients/typescript/src/generated/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly' },
    },
    rules: {
      // TypeScript checks undefined names itself (and knows Node's and mocha's globals from tsconfig `types`).
      'no-undef': 'off',
      // `_`-prefixed names mark parameters and destructured leftovers kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Input validation here looks for control characters on purpose (headers, addresses, tags, page text).
      'no-control-regex': 'off',
    },
  },
  {
    // A command's code loads when it runs (loadedRun in src/runtime/command.ts): `require` keeps it on the CommonJS
    // loader the rest of the program is on, where `import()` would load a second copy of shared modules.
    files: ['src/runtime/commands/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and benchmarks read untyped JSON bodies and poke at internals; `any` there is the honest type.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['**/*store*.ts', '**/*Store.ts', 'src/sandbox/**', 'src/dev/**'],
    rules: { 'no-restricted-syntax': ['error', ...sqlOutsideStore] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
