import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { checkAll } from './check';
import { chunkDocument } from '../../src/core/chunking/chunkFile';
import type { AstChunkerLike } from '../../src/core/chunking/contract';
import { chunkByLines } from '../../src/core/chunking/lines';
import { makeChunkId, makeDocid } from '../../src/core/chunking/ids';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import type { ChunkKind, FileChunks, SourceDocument } from '../../src/core/types';
import { docOf, text } from './lineChunkerSupport';

/** A stand-in for the tree-sitter chunker that records its calls and answers as told. */
class FakeAst implements AstChunkerLike {
  calls: string[] = [];
  constructor(private readonly answer: (doc: SourceDocument) => Promise<FileChunks | null>, private readonly languages = ['typescript', 'json']) {}
  supports(language: string): boolean {
    return this.languages.includes(language);
  }
  chunk(doc: SourceDocument): Promise<FileChunks | null> {
    this.calls.push(doc.path);
    return this.answer(doc);
  }
  async prepare(): Promise<void> {}
  dispose(): void {}
}

const TS = docOf('src/app.ts', text('export function main() {', '  return 1;', '}'));

function astResult(doc: SourceDocument): FileChunks {
  const body = doc.text;
  return {
    path: doc.path,
    strategy: 'ast',
    diagnostics: [{ code: 'syntax-error', message: 'partial parse', path: doc.path, severity: 'info' }],
    chunks: [{
      docid: makeDocid(doc.path, 1, 3), id: makeChunkId(doc.path, 'function', 'main', 1, body), path: doc.path,
      startLine: 1, endLine: 3, text: body, language: doc.language, kind: 'function', symbol: 'main', context: 'main',
    }],
  };
}

describe('chunkDocument (dispatcher)', () => {
  it('uses the AST chunker for a supported language under the ast strategy', async () => {
    const ast = new FakeAst(async (d) => astResult(d));
    const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'ast', ast });
    assert.equal(r.strategy, 'ast');
    assert.deepEqual(r.chunks.map((c) => c.symbol), ['main']);
    assert.deepEqual(r.diagnostics.map((d) => d.code), ['syntax-error']);
    assert.deepEqual(ast.calls, ['src/app.ts']);
  });

  it('falls back to line chunks with an ast-fallback diagnostic when the parse yields nothing', async () => {
    const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'ast', ast: new FakeAst(async () => null) });
    assert.equal(r.strategy, 'lines');
    assert.deepEqual(r.chunks, chunkByLines(TS, DEFAULT_POLICY));
    assert.equal(r.chunks[0]?.context, '');
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.path, d.severity]), [['ast-fallback', 'src/app.ts', 'warning']]);
    assert.match(r.diagnostics[0]?.message ?? '', /no usable chunks/);
  });

  for (const [how, fail] of [
    ['rejects', async (): Promise<never> => Promise.reject(new Error('wasm trap: out of bounds'))],
    ['throws synchronously', (): Promise<never> => { throw new Error('wasm trap: out of bounds'); }],
  ] as const) {
    it(`falls back per file when the AST chunker ${how}, keeping the reason`, async () => {
      const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'ast', ast: new FakeAst(fail) });
      assert.equal(r.strategy, 'lines');
      assert.ok(r.chunks.length > 0);
      assert.equal(r.diagnostics[0]?.code, 'ast-fallback');
      assert.match(r.diagnostics[0]?.message ?? '', /wasm trap: out of bounds/);
    });
  }

  it('uses plain lines without a diagnostic for languages the AST chunker does not support', async () => {
    const ast = new FakeAst(async (d) => astResult(d));
    const doc = docOf('build.gradle', 'apply plugin: "java"');
    const r = await chunkDocument(doc, { policy: DEFAULT_POLICY, strategy: 'ast', ast });
    assert.deepEqual([r.strategy, r.diagnostics, ast.calls], ['lines', [], []]);
  });

  it('always uses the structural chunkers for markdown and yaml, even if a grammar claims them', async () => {
    const ast = new FakeAst(async (d) => astResult(d), ['markdown', 'yaml']);
    const md = await chunkDocument(docOf('README.md', text('# Title', 'body')), { policy: DEFAULT_POLICY, strategy: 'ast', ast });
    const yml = await chunkDocument(docOf('ci.yml', 'on: push'), { policy: DEFAULT_POLICY, strategy: 'ast', ast });
    assert.deepEqual([md.strategy, md.chunks[0]?.kind, yml.strategy, yml.chunks[0]?.kind], ['markdown', 'section', 'yaml', 'key']);
    assert.deepEqual(ast.calls, []);
  });

  it('never calls the AST chunker under the lines strategy', async () => {
    const ast = new FakeAst(async (d) => astResult(d));
    const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'lines', ast });
    assert.deepEqual([r.strategy, ast.calls], ['lines', []]);
  });

  it('chunks by lines when the ast strategy has no AST chunker', async () => {
    const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'ast' });
    assert.deepEqual([r.strategy, r.diagnostics], ['lines', []]);
  });

  it('does not throw for a malformed document; reports it instead', async () => {
    const broken = { ...TS, text: undefined } as unknown as SourceDocument;
    const r = await chunkDocument(broken, { policy: DEFAULT_POLICY, strategy: 'lines' });
    assert.deepEqual(r.chunks, []);
    assert.equal(r.diagnostics[0]?.code, 'chunk-failed');
  });

  it('keeps the path of the document even if the AST result names another', async () => {
    const ast = new FakeAst(async (d) => ({ ...astResult(d), path: 'elsewhere.ts' }));
    const r = await chunkDocument(TS, { policy: DEFAULT_POLICY, strategy: 'ast', ast });
    assert.equal(r.path, 'src/app.ts');
  });
});

describe('chunkDocument with no document at all', () => {
  it('reports instead of throwing', async () => {
    const r = await chunkDocument(null as unknown as SourceDocument, { policy: DEFAULT_POLICY, strategy: 'ast' });
    assert.deepEqual([r.chunks, r.diagnostics[0]?.code], [[], 'chunk-failed']);
  });
});

describe('stable chunk ids', () => {
  // Pinned values: an id must not change between versions for the same chunk, or every
  // consumer that kept one (agents, packs) would lose it after an upgrade.
  checkAll(
    [
      { name: 'ascii', input: ['src/some/path/file.ts', 'function', 'fooBar7', 199999, 'x'.repeat(300) + 'function foo() { return 1; }\n'.repeat(3)], expected: '669f101204aecdcd' },
      { name: 'an empty symbol', input: ['README.md', 'section', '', 1, '# Title\n'], expected: pinned('README.md', 'section', '', 1, '# Title\n') },
      { name: 'non-ASCII text and path', input: ['docs/ünï/ß.md', 'section', 'Größe', 3, '## Größe 📏\n'], expected: pinned('docs/ünï/ß.md', 'section', 'Größe', 3, '## Größe 📏\n') },
      // Lone surrogates are hashed as U+FFFD, as Node's string hashing always did.
      { name: 'lone surrogates', input: ['a\ud800.ts', 'function', 'f\udc00', 7, 'x\ud83d\n\udc00y'], expected: pinned('a\ud800.ts', 'function', 'f\udc00', 7, 'x\ud83d\n\udc00y') },
      // The ids reuse one buffer for their bytes: it grows with a long text, and a text too long is
      // given a buffer of its own; the bytes a long text leaves behind must not reach the next id.
      { name: 'a text that grows the reused buffer', input: ['mid.js', 'code', '', 1, 'é'.repeat(100_000)], expected: pinned('mid.js', 'code', '', 1, 'é'.repeat(100_000)) },
      { name: 'a short text after a long one', input: ['a.py', 'function', 'g', 2, 'def g(): pass\n'], expected: pinned('a.py', 'function', 'g', 2, 'def g(): pass\n') },
      { name: 'a text too long to keep a buffer for', input: ['big.js', 'code', '', 1, 'é'.repeat(600_000)], expected: pinned('big.js', 'code', '', 1, 'é'.repeat(600_000)) },
    ],
    ([p, kind, symbol, line, text]) => makeChunkId(p as string, kind as ChunkKind, symbol as string, line as number, text as string),
  );
});

/** The id as first defined: SHA-256 over the parts joined by NUL, first 16 hex digits. */
function pinned(...parts: Array<string | number>): string {
  const h = createHash('sha256');
  parts.forEach((part, i) => h.update(i ? `\0${part}` : String(part)));
  return h.digest('hex').slice(0, 16);
}
