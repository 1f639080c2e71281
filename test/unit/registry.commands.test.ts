// Pure helpers of the registry: command extraction and requested-path normalisation.
import { extractCommands } from '../../src/core/registry/commands';
import { normaliseRequestedPath } from '../../src/core/registry/paths';
import { checkAll } from './check';

/** `line: command (origin)` for each suggestion, and whether every one is untrusted. */
function commandsOf(text: string): string[] {
  return extractCommands('DOC.md', text).map((c) => `${c.line}: ${c.command} (${c.origin}${c.trusted ? ', TRUSTED' : ''})`);
}

describe('registry suggested commands', () => {
  checkAll(
    [
      { name: 'fenced sh block: every line, comments skipped', input: '```sh\n# install\nnpm ci\nnpm test\n```\n', expected: ['3: npm ci (fenced-block)', '4: npm test (fenced-block)'] },
      { name: 'bash block with a $ prompt and a continuation', input: '```bash\n$ docker run \\\n  --rm image\n```', expected: ['2: docker run --rm image (fenced-block)'] },
      { name: 'console block: only prompt lines, output ignored', input: '```console\n$ ls\nfile.txt\n```', expected: ['2: ls (prompt-line)'] },
      { name: 'a $ line in prose', input: 'Run it:\n\n  $ make all\n', expected: ['3: make all (prompt-line)'] },
      { name: 'a ts block is not a shell', input: '```ts\nconst x = 1;\n```', expected: [] },
      { name: 'a longer fence is not closed by a shorter one', input: '````sh\nls\n```\npwd\n````\necho no', expected: ['2: ls (fenced-block)', '3: ``` (fenced-block)', '4: pwd (fenced-block)'] },
      { name: 'powershell and tilde fences', input: '~~~powershell\nGet-ChildItem\n~~~', expected: ['2: Get-ChildItem (fenced-block)'] },
      { name: 'an unclosed block runs to the end', input: '```sh\nrm -rf build', expected: ['2: rm -rf build (fenced-block)'] },
      { name: 'no commands', input: '# Title\n\nJust prose with $ signs like $5.\n', expected: [] },
    ],
    commandsOf,
  );
});

describe('registry requested paths', () => {
  checkAll<string, string>(
    [
      { input: 'references/api.md', expected: 'ok references/api.md' },
      { input: './references//api.md', expected: 'ok references/api.md' },
      { input: 'references\\api.md', expected: 'ok references/api.md' },
      { input: 'references%2Fapi.md', expected: 'ok references/api.md' },
      { input: '..notes.md', expected: 'ok ..notes.md' },
      { input: '../x', expected: 'path-traversal' },
      { input: '..%2fx', expected: 'path-traversal' },
      { input: '..%5cx', expected: 'path-traversal' },
      { input: '%2e%2e%2fx', expected: 'path-traversal' },
      { input: 'a/../../x', expected: 'path-traversal' },
      { input: 'a/../b', expected: 'path-traversal' },
      { input: '/etc/passwd', expected: 'path-traversal' },
      { input: '%2fetc%2fpasswd', expected: 'path-traversal' },
      { input: 'C:\\x', expected: 'path-traversal' },
      { input: 'c:/x', expected: 'path-traversal' },
      { input: '\\\\server\\x', expected: 'path-traversal' },
      { input: '%zz', expected: 'ok %zz' },
      { input: '%E0%A4%A', expected: 'invalid-request' },
      { input: 'a\0b', expected: 'invalid-request' },
      { input: './', expected: 'invalid-request' },
    ],
    (input) => {
      const r = normaliseRequestedPath(input);
      return r.ok ? `ok ${r.path}` : r.code;
    },
  );
});
