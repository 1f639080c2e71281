// Lint rules that encode the architecture (see ARCHITECTURE.md):
// only src/vscode/ (and the in-host tests) may import `vscode`; the engine stays host-agnostic.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'Only src/vscode/ may import vscode: the engine and other front ends are host-agnostic.' }],
  }],
  '@typescript-eslint/no-restricted-imports': 'off',
};

/**
 * Front ends (cli, mcp, tools, server, vscode, webview and the command layer) reach the engine
 * through its declared entries only: core/api.ts (plain data), core/clientApi.ts (what runs
 * without an engine) and core/engineApi.ts (what opens and runs one).
 */
const engineTypes = {
  group: ['**/core/*', '**/core/*/**', '!**/core/api', '!**/core/clientApi', '!**/core/engineApi'],
  message: 'Front ends import the engine from src/core/api.ts (data), clientApi.ts or engineApi.ts (what runs).',
};
/** The extension host runs no engine (its engine thread does): of engineApi.ts it takes types only. */
const engineTypesOnly = { group: ['**/core/engineApi'], allowTypeImports: true, message: 'The extension host loads no engine code: take only types from engineApi.ts (the engine runs on the engine thread).' };

const serverNotCli = { group: ['**/cli/**'], message: 'src/server/ never imports src/cli/: shared pieces live in src/command/.' };

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'grammars/**', 'test/fixtures/**', '.vscode-test/**', '.vscode-test-artifacts/**', '.bench/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  { files: ['src/**/*.ts', 'test/**/*.ts'], ignores: ['src/vscode/**', 'test/vscode/**'], rules: noVscode },
  {
    files: ['src/cli/**/*.ts', 'src/mcp/**/*.ts', 'src/tools/**/*.ts', 'src/command/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [engineTypes] }] },
  },
  // The server knows the protocol, the CLI the commands: they meet in src/command/, and the CLI
  // hands the server its command runner (cli/engineWorker.ts, cli/commands/serve.ts).
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [engineTypes, serverNotCli] }] },
  },
  {
    files: ['src/vscode/**/*.ts'],
    rules: { 'no-restricted-imports': 'off', '@typescript-eslint/no-restricted-imports': ['error', { patterns: [engineTypes, engineTypesOnly] }] },
  },
  // The webview runs in a browser: of the engine it takes types, erased from its bundle, and nothing else.
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: noVscode['no-restricted-imports'][1].paths,
        patterns: [
          { group: ['**/core/*', '**/core/*/**', '!**/core/api'], message: 'The webview takes engine types from src/core/api.ts only (the others reach node-only code).' },
          { group: ['**/core/api'], allowTypeImports: true, message: 'The webview runs in a browser: it takes only types from the engine (import type).' },
        ],
      }],
    },
  },
  // The engine must not reach into any front end.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core/ never imports vscode.' }],
        patterns: [
          { group: ['**/vscode/**', '**/cli/**', '**/mcp/**', '**/tools/**', '**/webview/**', '**/server/**'], message: 'src/core/ must not depend on a front end.' },
          // Eval and bench measure the engine from outside; the engine never runs them.
          { group: ['**/eval/**', '**/bench/**'], message: 'src/core/ must not depend on the eval or bench tools (src/eval, src/bench).' },
        ],
      }],
    },
  },
  // The `cairn` launcher's path to a server loads no engine code: a served query starts in milliseconds.
  {
    files: ['src/cli/launch.ts', 'src/server/client.ts', 'src/server/protocol.ts', 'src/command/cacheDir.ts', 'src/command/storeLocation.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: noVscode['no-restricted-imports'][1].paths,
        patterns: [{
          // Of the engine, only the node:crypto loader and the atomic file write (the code cache's); of
          // the command layer, where caches and stores live; of the CLI, the V8 flag a command that
          // parses runs with.
          group: ['**/core/*', '!**/core/nodeCrypto', '!**/core/store', '**/core/*/*', '!**/core/store/atomic', '**/command/*', '!**/command/cacheDir', '!**/command/storeLocation', '**/cli/**', '**/server/**', '!**/server/client', '!**/server/protocol', './*', '!./cacheDir', '!./wasmCompiler', '!./client', '!./protocol'],
          message: 'The client path (launch.ts, src/server/client.ts and protocol.ts, src/command/cacheDir.ts and storeLocation.ts) loads no engine code.',
        }],
      }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', Buffer: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' } },
  },
);
