// ESLint: TypeScript rules plus the zone rules of STYLE.md (engine never imports electron; shared and renderer never import Node) and the layer map with SQL kept in the store (eslint-rules/layers.js).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layersRule, storeSqlRule } from './eslint-rules/layers.js';

const nodeBuiltins = ['node:*', 'fs', 'path', 'child_process', 'os', 'crypto', 'http', 'net', 'url', 'stream', 'util'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'coverage/**', 'resources/demo-repo/**', 'scripts/record-corpus/projects/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['electron/engine/**', 'electron/cli/**', 'electron/host/**', 'electron/scripted/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Bad layering: the engine runs under plain Node and never imports electron.' }] },
      ],
    },
  },
  {
    // The layer map, for product code: tests, test helpers and dev fixtures may reach across it.
    files: ['shared/**', 'renderer/**', 'electron/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', 'renderer/dev/**'],
    plugins: { ratchet: { rules: { layers: layersRule, 'store-sql': storeSqlRule } } },
    rules: { 'ratchet/layers': 'error', 'ratchet/store-sql': 'error' },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['shared/**', 'renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Bad layering: shared/ and renderer/ never import electron.' }],
          patterns: [{ group: nodeBuiltins, message: 'Bad layering: shared/ and renderer/ never import Node built-ins.' }],
        },
      ],
    },
  },
);
