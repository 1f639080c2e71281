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

/** Front ends take the engine's plain-data types from its one API module. */
const engineTypes = { group: ['**/core/search/types', '**/core/pack/types', '**/core/engine/indexer'], message: 'Front ends import engine types from src/core/api.ts.' };

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
    files: ['src/cli/**/*.ts', 'src/mcp/**/*.ts', 'src/tools/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [engineTypes] }] },
  },
  // The server knows the protocol, the CLI the commands: they meet in src/command/, and the CLI
  // hands the server its command runner (cli/engineWorker.ts, cli/commands/serve.ts).
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [engineTypes, serverNotCli] }] },
  },
  { files: ['src/vscode/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [engineTypes] }] } },
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
    files: ['src/cli/launch.ts', 'src/server/client.ts', 'src/server/protocol.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: noVscode['no-restricted-imports'][1].paths,
        patterns: [{
          // Of the engine, only the node:crypto loader and the atomic file write (the code cache's); of
          // the command layer, where caches and stores live; of the CLI, the V8 flag a command that
          // parses runs with.
          group: ['**/core/*', '!**/core/nodeCrypto', '!**/core/store', '**/core/*/*', '!**/core/store/atomic', '**/command/*', '!**/command/cacheDir', '!**/command/storeLocation', '**/cli/**', '**/server/**', '!**/server/client', '!**/server/protocol', './*', '!./wasmCompiler', '!./client', '!./protocol'],
          message: 'The client path (launch.ts, src/server/client.ts, protocol.ts) loads no engine code.',
        }],
      }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', Buffer: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' } },
  },
);
