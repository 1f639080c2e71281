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
        paths: [
          { name: 'vscode', message: 'src/core/ never imports vscode.' },
          // Nothing leaves the machine unless a user configures it: the registry's fetcher is the only network code.
          ...['node:http', 'node:https', 'node:http2', 'node:net', 'node:tls', 'node:dgram', 'http', 'https', 'http2', 'net', 'tls', 'dgram']
            .map((name) => ({ name, message: 'src/core/ talks to no network; the registry\'s remote fetcher (core/registry/http.ts, global fetch) is the one exception.' })),
          ...['node:os', 'os'].map((name) => ({ name, importNames: ['homedir', 'tmpdir'], message: 'src/core/ never guesses a location: the front end passes the store and scratch folders in.' })),
        ],
        patterns: [
          { group: ['**/vscode/**', '**/cli/**', '**/mcp/**', '**/tools/**', '**/webview/**', '**/server/**'], message: 'src/core/ must not depend on a front end.' },
          // Eval and bench measure the engine from outside; the engine never runs them.
          { group: ['**/eval/**', '**/bench/**'], message: 'src/core/ must not depend on the eval or bench tools (src/eval, src/bench).' },
        ],
      }],
      // The engine never guesses a location: root, store, grammars, workers and ripgrep are passed in.
      'no-restricted-globals': ['error',
        { name: '__dirname', message: 'src/core/ never guesses a location: the front end passes it in (cli/assets.ts, vscode/assets.ts).' },
        { name: '__filename', message: 'src/core/ never guesses a location: the front end passes it in.' },
        { name: 'fetch', message: 'src/core/ talks to no network; only core/registry/http.ts fetches, for a source the user configured.' },
      ],
      'no-restricted-properties': ['error',
        { object: 'process', property: 'cwd', message: 'src/core/ never guesses a location: the root is passed in.' },
        { object: 'os', property: 'homedir', message: 'src/core/ never guesses a location: the store directory is passed in.' },
        { object: 'os', property: 'tmpdir', message: 'src/core/ never guesses a location: the front end passes scratch folders in.' },
        { object: 'process', property: 'chdir', message: 'src/core/ never changes the process\'s directory.' },
        // lunr parses queries and stems prose; storage and scoring are Cairn's own segments.
        { object: 'lunr', property: 'Index', message: 'There is no lunr index: Cairn stores and scores its own segments.' },
        { object: 'lunr', property: 'Builder', message: 'There is no lunr index: Cairn stores and scores its own segments.' },
      ],
    },
  },
  // The registry's remote fetcher is the engine's one network client (off unless a user configures a URL).
  { files: ['src/core/registry/http.ts'], rules: { 'no-restricted-globals': 'off' } },
  // The `cairn` launcher's path to a server loads no engine code: a served query starts in milliseconds.
  {
    files: ['src/cli/launch.ts', 'src/server/client.ts', 'src/server/protocol.ts', 'src/command/cacheDir.ts', 'src/command/storeLocation.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: noVscode['no-restricted-imports'][1].paths,
        patterns: [{
          // Of the engine, only the node:crypto loader, the atomic file write (the code cache's) and
          // the V8 wasm compiler flags a command that parses starts with; of the command layer,
          // where caches and stores live.
          group: ['**/core/*', '!**/core/nodeCrypto', '!**/core/store', '!**/core/chunking', '**/core/*/*', '!**/core/store/atomic', '!**/core/chunking/wasmTiers', '**/command/*', '!**/command/cacheDir', '!**/command/storeLocation', '**/cli/**', '**/server/**', '!**/server/client', '!**/server/protocol', './*', '!./cacheDir', '!./client', '!./protocol'],
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
