// Current syntax of each language parses without a syntax-error region, and its definitions are
// found: the grammars Cairn ships must keep up with the languages. Each snippet below is one a
// grammar older than the bundled one read with ERROR nodes (the chunker then warns and cuts
// around them), or a definition the chunker did not list.
import { checkAll } from './check';
import { chunkDoc, makeDoc } from './astChunkerSupport';

/** The parse-error warning if any, then one `kind breadcrumb lines` line per definition. */
async function outcome({ path, text }: { path: string; text: string }): Promise<string[]> {
  const result = await chunkDoc(makeDoc(path, text));
  const errors = result.diagnostics.filter((d) => d.code === 'parse-errors').map((d) => `parse errors: ${d.message}`);
  const definitions = result.chunks.filter((c) => c.symbol).map((c) => `${c.kind} ${c.context} ${c.startLine}-${c.endLine}`);
  return [...errors, ...definitions];
}

describe('current syntax parses clean and keeps its definitions', () => {
  checkAll(
    [
      {
        name: 'typescript: `export type * from` and `export type * as` re-exports (TS 5.0)',
        input: { path: 'api.ts', text: `import type { Options } from './options';

export type * from './search/types';
export type * as Pack from './pack/types';
export { MAX_QUERY_CHARS } from './query';

export function search(query: string, options: Options): string[] {
  return [query];
}
` },
        expected: ['function search 7-9'],
      },
      {
        name: 'typescript: a regular expression holding `-->`',
        input: { path: 'outline.ts', text: `const HTML_COMMENT = /<!--[\\s\\S]*?(?:-->|$)/g;

export function stripComments(html: string): string {
  return html.replace(HTML_COMMENT, '');
}
` },
        expected: ['constant HTML_COMMENT 1-1', 'function stripComments 3-5'],
      },
      {
        name: 'typescript: an `accessor` field (TS 4.9 decorators)',
        input: { path: 'counter.ts', text: `export class Counter {
  accessor count = 0;

  increment(): void {
    this.count++;
  }
}
` },
        expected: ['class Counter 1-7', 'method Counter.increment 4-6'],
      },
      {
        name: 'python: a PEP 695 `type` alias is a definition',
        input: { path: 'shapes.py', text: `type Point = tuple[float, float]
type Grid[T] = list[list[T]]


def first[T](items: list[T]) -> T:
    return items[0]
` },
        expected: ['type Point 1-1', 'type Grid 2-2', 'function first 5-6'],
      },
      {
        name: 'rust: async closures (Rust 1.85)',
        input: { path: 'fetch.rs', text: `pub async fn fetch_all(urls: Vec<String>) -> usize {
    let fetch = async |url: String| url.len();
    let mut total = 0;
    for url in urls {
        total += fetch(url).await;
    }
    total
}

pub fn after() {}
` },
        expected: ['function fetch_all 1-8', 'function after 10-10'],
      },
      {
        name: 'rust: C string literals (Rust 1.77)',
        input: { path: 'ffi.rs', text: `pub const NAME: &core::ffi::CStr = c"cairn";

pub fn name() -> &'static core::ffi::CStr {
    NAME
}
` },
        expected: ['constant NAME 1-1', 'function name 3-5'],
      },
      {
        name: 'rust: a half-open range pattern `128..` (from ripgrep)',
        input: { path: 'escape.rs', text: `fn keep(byte: u8) -> bool {
    match byte {
        b'a'..=b'z' | b'-' | 128.. => true,
        _ => false,
    }
}

fn after() {}
` },
        expected: ['function keep 1-6', 'function after 8-8'],
      },
      {
        name: 'csharp: a primary constructor and a raw string literal (C# 11, 12)',
        input: { path: 'Point.cs', text: `namespace App;

public class Point(int x, int y)
{
    public int Sum() => x + y;

    public string Describe() => """
        a "point"
        """;
}

public record struct Pair(int A, int B);
` },
        expected: ['class Point 3-10', 'method Point.Sum 5-5', 'method Point.Describe 7-9', 'struct Pair 12-12'],
      },
    ],
    outcome,
  );
});
