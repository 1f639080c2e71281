// The pure parts of the context-pack panel, checked in the host: what it accepts from the
// webview, how the basket becomes part of the task, and how the eval child's output is read.
import * as assert from 'node:assert/strict';
import { taskWithBasket } from '../../../src/vscode/pack/basketTask';
import { cliError, evalArgs, parseEvalReport } from '../../../src/vscode/pack/evalRun';
import { requestFromArgument } from '../../../src/vscode/pack/registerPack';
import { parseViewMessage } from '../../../src/vscode/pack/messages';
import type { BasketSpan } from '../../../src/webview/pack/protocol';

const span = (folder: string, docid: string): BasketSpan => {
  const [, path, start, end] = /^(.+):(\d+)-(\d+)$/.exec(docid) as RegExpExecArray;
  return { folder, docid, path: path as string, startLine: Number(start), endLine: Number(end), symbol: '', kind: 'function' };
};

describe('Context pack webview: messages, basket and eval output', () => {
  it('accepts only well-formed messages from the webview', () => {
    assert.deepEqual(parseViewMessage({ type: 'build', request: { task: '  fix\nthe   parser ', budgetTokens: 50 } }, 6000), {
      type: 'build',
      request: { task: 'fix the parser', budgetTokens: 200 },
    });
    assert.deepEqual(parseViewMessage({ type: 'build', request: { task: 'x', budgetTokens: 'lots' } }, 6000), { type: 'build', request: { task: 'x', budgetTokens: 6000 } });
    assert.equal(parseViewMessage({ type: 'build', request: { task: '   ' } }, 6000), undefined);
    assert.equal(parseViewMessage({ type: 'open', target: { folder: 'w', path: 'a.ts', startLine: 0, endLine: 3 } }, 6000), undefined);
    assert.equal(parseViewMessage({ type: 'open', target: { folder: 'w', path: 'a.ts', startLine: 5, endLine: 3 } }, 6000), undefined);
    assert.deepEqual(parseViewMessage({ type: 'open', target: { folder: 'w', path: 'a.ts', startLine: 3, endLine: 5 } }, 6000), { type: 'open', target: { folder: 'w', path: 'a.ts', startLine: 3, endLine: 5 } });
    assert.equal(parseViewMessage({ type: 'insertMarkdown', target: 'elsewhere' }, 6000), undefined);
    assert.equal(parseViewMessage({ type: 'guidance', id: 'a/b', mode: 'file' }, 6000), undefined);
    assert.equal(parseViewMessage({ type: 'runCommand', command: 'rm -rf /' }, 6000), undefined);
    assert.equal(parseViewMessage('build', 6000), undefined);
    assert.deepEqual(parseViewMessage({ type: 'ready', restored: { task: 't', budgetTokens: 900, hasResult: true } }, 6000), { type: 'ready', restored: { task: 't', budgetTokens: 900, hasResult: true } });
  });

  it('reads the command argument: a task string or { task, budgetTokens, folder }', () => {
    assert.deepEqual(requestFromArgument('  fix the parser '), { task: 'fix the parser', budgetTokens: 6000 });
    assert.deepEqual(requestFromArgument({ task: 'x', budgetTokens: 1e9, folder: 'api' }), { task: 'x', budgetTokens: 100000, folder: 'api' });
    assert.equal(requestFromArgument(undefined), undefined);
    assert.equal(requestFromArgument({ budgetTokens: 100 }), undefined);
  });

  it('names basket spans of the pack folder in the task, once, and reports the others', () => {
    const items = [span('app', 'src/a.ts:1-9'), span('app', 'src/a.ts:1-9'), span('lib', 'src/b.ts:3-4'), span('app', 'my docs/x.md:1-2'), span('app', 'src/c.ts:5-8')];
    const r = taskWithBasket('fix src/c.ts:5-8 please', items, (f) => f === 'app', 'app');
    assert.equal(r.task, 'fix src/c.ts:5-8 please (pinned spans src/a.ts:1-9)');
    assert.deepEqual(r.included, ['src/a.ts:1-9', 'src/c.ts:5-8']);
    assert.deepEqual(r.leftOut.map((l) => l.docid), ['src/b.ts:3-4', 'my docs/x.md:1-2']);
    assert.match(r.leftOut[0]!.reason, /folder lib/);
    assert.equal(taskWithBasket('fix it', [], () => true, 'app').task, 'fix it');
  });

  it('reads the eval report and the CLI error from the child output', () => {
    const report = { repository: '/r', evaluated: 2, systems: [] };
    assert.deepEqual(parseEvalReport(`noise\n${JSON.stringify(report)}\n`), report);
    assert.equal(parseEvalReport('{"error":{"code":"x","message":"y"}}'), undefined);
    assert.deepEqual(cliError('warning: slow\n{"error":{"code":"git-failed","message":"not a repo"}}\n'), { code: 'git-failed', message: 'not a repo' });
    assert.equal(cliError('just text'), undefined);
  });

  it("hands the eval child VS Code's ripgrep when there is one", () => {
    assert.deepEqual(evalArgs('/ext/dist/cli.js', '/repo', { commits: 5, ripgrepPath: '/vscode/rg' }), ['/ext/dist/cli.js', 'eval', '--json', '--commits', '5', '--rg', '/vscode/rg', '/repo']);
    assert.deepEqual(evalArgs('/ext/dist/cli.js', '/repo'), ['/ext/dist/cli.js', 'eval', '--json', '/repo']);
  });
});
