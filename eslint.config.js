import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The data layer (docs/architecture.md): the server's queries live in repository modules and in
    // db/ (connection, migrations, locks), outbox/ (its claim queries) and ops' seeds and start-up; services hold rules.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/repository.ts',
      'apps/server/src/**/*-repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/outbox/**',
      'apps/server/src/ops/seed/**',
      'apps/server/src/ops/startup.ts',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'Queries live in a repository module (repository.ts or <aggregate>-repository.ts).',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: 'Queries live in a repository module (repository.ts or <aggregate>-repository.ts).',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/member/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // One vocabulary in the front ends (docs/architecture.md's glossary): a class is a session, a
    // teacher a teacher; the calls' `tid` is spelt only by each app's wire.ts.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/member/src/**/*.{ts,tsx}'],
    ignores: ['**/wire.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='tid'], MemberExpression[property.name='tid'], Identifier[name='tid']",
          message:
            "The calls' `tid` is met in wire.ts only (onSession, forTeacher, sessionIdOf): inside the app it is sessionId or teacherId.",
        },
      ],
    },
  },
);
