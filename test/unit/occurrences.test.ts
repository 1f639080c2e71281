// Where the chunker says a name occurs as code: identifier nodes only (never comments or
// strings, always template substitutions), each with its role. A case is a file, a name, and
// that name's occurrences as `line:column role`.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { chunkDoc, makeDoc } from './astChunkerSupport';
import { OCCURRENCE_ROLES, type FileChunks } from '../../src/core/types';

/** The name's occurrences in a chunked file, as `line:column role`, in file order. */
function occurrencesOf(result: FileChunks, name: string): string[] {
  const o = result.occurrences;
  if (!o) return [];
  const out: Array<[number, number, string]> = [];
  for (let k = 0; k < o.entries.length; k += 4) {
    const ref = o.entries[k + 3] as number;
    if (o.names[ref >> 2] === name) out.push([o.entries[k + 1] as number, o.entries[k + 2] as number, OCCURRENCE_ROLES[ref & 3] as string]);
  }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([l, c, r]) => `${l}:${c} ${r}`);
}

async function check([file, text, name]: [string, string, string]): Promise<string[]> {
  return occurrencesOf(await chunkDoc(makeDoc(file, text)), name);
}

describe('occurrences: where names occur as code, by language', () => {
  checkAll<[string, string, string], string[]>(
    [
      {
        name: 'typescript: comments and strings are not code; a template substitution is; an import and a re-export are imports',
        input: [
          'a.ts',
          [
            "import { parse } from './parser';", // 1
            "export { parse as parseAll } from './parser';", // 2
            '// parse is mentioned in a comment', // 3
            "const label = 'parse'; /* parse */", // 4
            'const out = `${parse(label)} parse`;', // 5
            'export function run(): void { parse(out); }', // 6
          ].join('\n'),
          'parse',
        ],
        expected: ['1:10 import', '2:10 import', '5:16 code', '6:31 code'],
      },
      {
        name: 'typescript: a method is a definition, `this.m()` and `other.m` members, a shadowing parameter plain code',
        input: ['b.ts', ['class Store {', '  save(save: number): void {', '    this.save(save);', '    other.save;', '  }', '}'].join('\n'), 'save'],
        expected: ['2:3 definition', '2:8 code', '3:10 member', '3:15 code', '4:11 member'],
      },
      {
        name: 'typescript: type names, object keys and optional chains',
        input: ['c.ts', ['type Id = string;', 'let x: Id = a?.Id;', 'const o = { Id: 1, Id2: 2 };'].join('\n'), 'Id'],
        expected: ['1:6 definition', '2:8 code', '2:16 member', '3:13 code'],
      },
      {
        name: 'javascript: a require binding is an import; module.exports a member',
        input: ['d.js', ["const helper = require('./helper');", 'function helper2() { return helper(); }', 'module.exports.helper = helper;'].join('\n'), 'helper'],
        expected: ['1:7 import', '2:29 code', '3:16 member', '3:25 code'],
      },
      {
        name: 'tsx: a component used as an element',
        input: ['e.tsx', ["import { Button } from './button';", 'export const App = () => <Button label="Button" />;'].join('\n'), 'Button'],
        expected: ['1:10 import', '2:27 code'],
      },
      {
        name: 'python: docstrings, comments and strings are not code; an f-string substitution is; from-imports are imports',
        input: [
          'p.py',
          ['from .models import fetch', '', 'def fetch_all():', '    """fetch everything"""', '    # fetch more', '    msg = f"{fetch()} fetch"', '    return client.fetch(msg)', ''].join('\n'),
          'fetch',
        ],
        expected: ['1:21 import', '6:14 code', '7:19 member'],
      },
      {
        name: 'python: self is not recorded',
        input: ['q.py', ['class A:', '    def m(self):', '        return self.m()', ''].join('\n'), 'self'],
        expected: [],
      },
      {
        name: 'go: a package alias in an import, a selector member, a struct key, a method definition',
        input: ['m.go', ['package main', '', 'import run "example.com/run"', '', '// run it', 'func (s *S) Run() { run.Run("run"); s.Run() }', ''].join('\n'), 'Run'],
        expected: ['6:13 definition', '6:25 member', '6:39 member'],
      },
      {
        name: 'go: the import alias itself',
        input: ['n.go', ['package main', '', 'import run "example.com/run"', '', 'func main() { run.Do() }', ''].join('\n'), 'run'],
        expected: ['3:8 import', '5:15 code'],
      },
      {
        name: 'rust: use is an import, a path member, a macro argument code, a range end not a member',
        input: ['lib.rs', ['use crate::util::size;', '/// size docs', 'fn f(n: usize) -> usize { println!("{} size", size); Self::size(); (0..size).len() }', ''].join('\n'), 'size'],
        expected: ['1:18 import', '3:47 code', '3:60 member', '3:72 code'],
      },
      {
        name: 'java: an import, a static call, an unqualified call in the class',
        input: ['A.java', ['import com.acme.Util;', 'class A {', '  /** Util docs */', '  void m() { Util.go(); String s = "Util"; }', '}'].join('\n'), 'Util'],
        expected: ['1:17 import', '4:14 code'],
      },
      {
        name: 'c: a macro body is read for names; a field member; a string is not',
        input: ['a.c', ['#define LIMIT(x) clamp(x, max)', 'int max = 3;', 'int f(struct s *p) { return p->max + LIMIT(1); /* max */ }', 'char *t = "max";', ''].join('\n'), 'max'],
        expected: ['1:27 code', '2:5 code', '3:32 member'],
      },
      {
        name: 'cpp: a namespace qualifier, a scoped member, a using declaration',
        input: ['a.cpp', ['using net::Socket;', 'namespace net { class Socket {}; }', 'void f() { net::Socket s; }', ''].join('\n'), 'Socket'],
        expected: ['1:12 import', '2:23 definition', '3:17 member'],
      },
      {
        name: 'ruby: a symbol names it, an instance variable does not, a string does not',
        input: ['a.rb', ['class Cart', '  attr_reader :total', '  def total; @total; end', '  def show; "total #{total}"; end', 'end', ''].join('\n'), 'total'],
        expected: ['2:16 code', '3:7 definition', '4:22 code'],
      },
      {
        name: 'php: a variable keeps its sigil; a method call is a member',
        input: ['a.php', ['<?php', 'function total($total) { return $this->total + total(); }', ''].join('\n'), 'total'],
        expected: ['2:10 definition', '2:40 member', '2:48 code'],
      },
      {
        name: "php: a name after `.` is joined to a string, not a member; `::` reaches a static one",
        input: ['b.php', ['<?php', 'function f() { return $a . $total . total() . A::$total; }', ''].join('\n'), '$total'],
        expected: ['2:28 code', '2:50 member'],
      },
      {
        name: 'html: a script is read for names, past its comments and strings; text and attribute values are not',
        input: ['a.html', ['<p title="load">load the page</p>', '<script>load("load"); // load', 'page.load()</script>', ''].join('\n'), 'load'],
        expected: ['2:9 code', '3:6 member'],
      },
      {
        name: 'csharp: a using directive, a member call',
        input: ['a.cs', ['using Acme.Tools;', 'class A { void M() { Tools.Run(); } }', ''].join('\n'), 'Tools'],
        expected: ['1:12 import', '2:22 code'],
      },
    ],
    check,
  );

  it('every occurrence of a fixture is placed in a chunk that holds its line', async () => {
    const text = ['export class A {', '  m(): number { return helper(1); }', '}', '', 'export function helper(n: number): number {', '  return n + helper.length;', '}', ''].join('\n');
    const result = await chunkDoc(makeDoc('x.ts', text));
    const o = result.occurrences;
    assert.ok(o && o.entries.length > 0);
    for (let k = 0; k < o.entries.length; k += 4) {
      const chunk = result.chunks[o.entries[k] as number];
      const line = o.entries[k + 1] as number;
      assert.ok(chunk && chunk.startLine <= line && line <= chunk.endLine, `occurrence at line ${line} placed in chunk ${chunk?.startLine}-${chunk?.endLine}`);
    }
    // The smallest chunk holds it: `helper(1)` is in the method, not in the class summary.
    const inMethod = occurrencesOf(result, 'helper')[0];
    assert.equal(inMethod, '2:24 code');
    const first = o.entries[3] === undefined ? -1 : [...Array(o.entries.length / 4).keys()].find((k) => o.names[(o.entries[4 * k + 3] as number) >> 2] === 'helper');
    assert.equal(result.chunks[o.entries[4 * (first as number)] as number]?.symbol, 'm');
  });

  it('a name scanned from the text ends where its node ends, for every identifier of a real file', async () => {
    const text = ['import { ünïcode, $dollar } from "./x";', 'const _under = ünïcode + $dollar + a1b2;', 'label: for (;;) { break label; }'].join('\n');
    const result = await chunkDoc(makeDoc('y.ts', text));
    assert.deepEqual([...new Set(result.occurrences?.names)].sort(), ['$dollar', '_under', 'a1b2', 'label', 'ünïcode'].sort());
  });
});
