// What the CLI and the agent tools print for a hit or a symbol: names in their language's own spelling.
import type { FileHit, ReferenceHit, SearchHit, SymbolHit } from '../../src/core/api';
import { formatFiles, formatHit, formatSymbolHit } from '../../src/cli/format';
import { formatReferences } from '../../src/cli/commands/refs';
import { hitHeading } from '../../src/tools/render';
import { checkAll } from './check';

function hit(context: string, language: string): SearchHit {
  return { docid: 'src/rt.rs:10-20', path: 'src/rt.rs', startLine: 10, endLine: 20, score: 1, scoreBreakdown: [], symbol: context.split('.').pop() ?? '', kind: 'method', language, context, preview: '', id: 'x' } as SearchHit;
}

describe('CLI and tool output: a hit is named as its language writes it', () => {
  checkAll<[string, string], string[]>(
    [
      { name: 'a Rust method', input: ['Runtime.block_on', 'rust'], expected: ['Runtime::block_on', 'Runtime::block_on', 'Runtime::block_on', 'Runtime::block_on', 'Runtime::block_on'] },
      { name: 'a C++ member', input: ['std.vector.push_back', 'cpp'], expected: ['std::vector::push_back', 'std::vector::push_back', 'std::vector::push_back', 'std::vector::push_back', 'std::vector::push_back'] },
      { name: 'a TypeScript method keeps its dot', input: ['HttpClient.fetchUser', 'typescript'], expected: ['HttpClient.fetchUser', 'HttpClient.fetchUser', 'HttpClient.fetchUser', 'HttpClient.fetchUser', 'HttpClient.fetchUser'] },
    ],
    ([context, language]) => {
      const h = hit(context, language);
      const file: FileHit = { path: h.path, score: 1, scoreBreakdown: [], spans: [h], matchedChunks: 1, language };
      const named = (line: string | undefined) => /(?:method|function) (\S+)/.exec(line ?? '')?.[1] ?? '';
      const symbol: SymbolHit = { ...h, match: 'exact', nameLine: 12, nameColumn: 5 } as SymbolHit;
      const reference = { path: h.path, line: 12, column: 5, context, language, certainty: 'certain', role: 'call', text: 'rt.block_on(f)', endColumn: 13, contextKind: 'function', reason: 'imported' } as unknown as ReferenceHit;
      const referenceContext = formatReferences([reference])[0]?.split('  ')[2] ?? '';
      return [named(formatHit(h)[0]), named(formatFiles([file])[1]), named(hitHeading(h)), named(formatSymbolHit(symbol)[0]), referenceContext];
    },
  );
});
