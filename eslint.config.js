// Layering (README, "Architecture"): each folder may import only the layers below it.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'This layer runs without Node.',
}));
const electronOnlyInGlue = {
  name: 'electron',
  message: 'Only electron/main and electron/preload import electron.',
};

/** One layer's rule: which folders it may not import, and why. */
function layer(files, forbidden, message, { node = true } = {}) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: node ? [electronOnlyInGlue] : [...nodeBuiltins, electronOnlyInGlue],
          patterns: [{ group: forbidden, message }],
        },
      ],
    },
  };
}

const ABOVE_CORE = ['**/main/**', '**/preload/**', '**/renderer/**'];

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
  layer(
    ['electron/shared/**'],
    [
      '**/core/**',
      '**/local-service/**',
      '**/application/**',
      '**/cli/**',
      '**/node-lib/**',
      ...ABOVE_CORE,
    ],
    'electron/shared is the bottom layer: the contract, without Node or Electron.',
    { node: false },
  ),
  layer(
    ['electron/node-lib/**'],
    ['**/core/**', '**/local-service/**', '**/application/**', '**/cli/**', ...ABOVE_CORE],
    'node-lib is shared Node plumbing: it imports only electron/shared.',
  ),
  layer(
    ['electron/core/**'],
    ['**/local-service/**', '**/application/**', '**/cli/**', ...ABOVE_CORE],
    'Core talks to any service through its client; the application layer composes the embedded one.',
  ),
  {
    // The store only persists: the corrected set (core/review) owns what follows a write, so the
    // store imports electron/shared and electron/node-lib, never another core folder. Repeats the
    // core rule's list: a later rule for the same files replaces an earlier one's options.
    files: ['electron/core/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInGlue],
          patterns: [
            {
              group: ['**/local-service/**', '**/application/**', '**/cli/**', ...ABOVE_CORE],
              message:
                'Core talks to any service through its client; the application layer composes the embedded one.',
            },
            {
              // A sibling core folder ('../review/…') or any core folder but store by its path.
              regex: '^\\.\\./(?!\\.\\./)|/core/(?!store/)',
              message:
                'electron/core/store only persists: it imports electron/shared and electron/node-lib, never review, runner or another core folder.',
            },
          ],
        },
      ],
    },
  },
  layer(
    ['electron/local-service/**'],
    ['**/core/**', '**/application/**', '**/cli/**', ...ABOVE_CORE],
    'The embedded service is independent of the client core.',
  ),
  layer(
    ['electron/application/**'],
    ['**/cli/**', ...ABOVE_CORE],
    'The application layer serves the contract in plain Node: no Electron, no CLI, no UI.',
  ),
  layer(
    ['electron/cli/**'],
    ['**/core/**', '**/local-service/**', ...ABOVE_CORE],
    'The CLI is a client of the application layer: never core, the embedded service, Electron glue or the UI.',
  ),
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  layer(
    ['renderer/**'],
    [
      '**/electron/core/**',
      '**/electron/local-service/**',
      '**/electron/cli/**',
      '**/electron/application/**',
      '**/electron/node-lib/**',
      '**/electron/main/**',
      '**/electron/preload/**',
      // The contract is reached through the @shared alias, not ../../../electron/shared.
      '**/electron/shared/**',
    ],
    'The renderer talks only to electron/shared, imported as @shared/….',
    { node: false },
  ),
  {
    // Tests read JSON answers loosely and assert on them; the assertions are the type checks there.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
