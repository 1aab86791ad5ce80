// Layering (see docs/architecture.md): each folder may import only the layers below it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const noNode = {
  paths: nodeBuiltins.map((name) => ({ name, message: 'This layer runs without Node.' })),
};
const electronOnlyInGlue = {
  name: 'electron',
  message: 'Only electron/main and electron/preload import electron.',
};
const layer = (group, message) => ({ group, message });

export default tseslint.config(
  { ignores: ['node_modules', 'build', 'out', 'dist', '.cache', 'resources/sdk'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['electron/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...noNode.paths, electronOnlyInGlue],
          patterns: [
            layer(
              [
                '**/core/**',
                '**/local-service/**',
                '**/cli/**',
                '**/main/**',
                '**/preload/**',
                '**/renderer/**',
              ],
              'electron/shared is the bottom layer.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**', 'electron/local-service/**', 'electron/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue],
          patterns: [
            layer(
              ['**/main/**', '**/preload/**', '**/renderer/**'],
              'Core layers never reach up into Electron glue or the UI.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['electron/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue],
          patterns: [
            layer(
              ['**/local-service/**', '**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**'],
              'Core talks to any service through its client; the CLI composes the embedded one.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['electron/local-service/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue],
          patterns: [
            layer(
              ['**/core/**', '**/cli/**', '**/main/**', '**/preload/**', '**/renderer/**'],
              'The embedded service is independent of the client core.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...noNode.paths, electronOnlyInGlue],
          patterns: [
            layer(
              [
                '**/electron/core/**',
                '**/electron/local-service/**',
                '**/electron/cli/**',
                '**/electron/main/**',
                '**/electron/preload/**',
              ],
              'The renderer talks only to electron/shared.',
            ),
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers loosely and assert on them; the assertions are the type checks there.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['electron/node-lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue],
          patterns: [
            layer(
              [
                '**/core/**',
                '**/local-service/**',
                '**/cli/**',
                '**/main/**',
                '**/preload/**',
                '**/renderer/**',
              ],
              'node-lib is shared Node plumbing: it imports only electron/shared.',
            ),
          ],
        },
      ],
    },
  },
);
