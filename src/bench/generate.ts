// A generated source tree for `npm run bench -- --generate N`: N files in five languages and
// Markdown, laid out as packages of modules that import each other, with definitions, doc
// comments, strings and prose, named from a fixed vocabulary. Deterministic (a seeded PRNG),
// so every run and every build measures the same tree; written once under .bench/ and reused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { seededRandom } from '../eval/symbolCheck';

export interface GeneratedTree {
  root: string;
  files: number;
  bytes: number;
  /** Files in a language with a tree-sitter grammar (all but the Markdown). */
  parseable: number;
}

const WORDS = (
  'account action adapter address agent alias allow anchor answer apply archive array asset audit author ' +
  'backup badge balance batch binding block board bound branch broker bucket budget buffer build bundle ' +
  'cache calendar callback canvas capture card cart catalog cell channel chart check chunk cipher claim ' +
  'client clock cluster code column command comment commit config connect console contact content context ' +
  'contract cookie counter course credit cursor customer dashboard data date debug decode default delta ' +
  'deploy device digest dispatch document domain draft driver editor element email encode endpoint engine ' +
  'entry event export feature field filter flag folder format frame gateway graph group guard handler ' +
  'header history host image import index input invoice issue item job journal key label layer layout ' +
  'ledger limit link listener loader locale lock logger mail manifest mapper marker matrix media member ' +
  'message meta metric migration mode model module monitor node notice offset option order output owner ' +
  'package page panel parser partner patch path payload payment peer permission pipeline plan player ' +
  'plugin policy pool port post preview price printer process profile project prompt property provider ' +
  'proxy query queue quota range rate reader record region registry release render report request ' +
  'resource response result review role route rule runner sample schema scope screen script search ' +
  'section segment selector sender session setting shape shard signal snapshot socket source span ' +
  'stage state status step storage store stream style summary supplier switch table tag target task ' +
  'template tenant text theme thread ticket timer token topic trace track transfer tree trigger type ' +
  'unit update upload user value vendor version view visitor volume wallet watcher widget window worker'
).split(' ');
/** Words some language reserves: never a whole identifier (they still appear inside camel-case names). */
const RESERVED = new Set(['default', 'export', 'import', 'package', 'range', 'switch', 'type']);
const NOUNS = WORDS.filter((w) => !RESERVED.has(w));
const VERBS = 'add apply build check clear close compute create decode delete describe encode ensure fetch find flush format get handle init list load lookup merge move normalize open parse prepare read refresh register remove render reset resolve save scan send set sort split start stop store sync test track update validate write'.split(' ');
const PROSE = 'the a this that each every when while after before with without for from into over under and or but not only also then so'.split(' ');

interface Names {
  pick<T>(list: readonly T[]): T;
  int(lo: number, hi: number): number;
  noun(): string;
  camel(parts: number): string;
  pascal(parts: number): string;
  snake(parts: number): string;
  sentence(words: number): string;
}

function namesFrom(random: () => number): Names {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS));
  return {
    pick,
    int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
    noun: () => pick(NOUNS),
    camel: (n) => pick(VERBS) + words(n).map(cap).join(''),
    pascal: (n) => words(n).map(cap).join(''),
    snake: (n) => [pick(VERBS), ...words(n)].join('_'),
    sentence: (n) => {
      const out = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? pick(PROSE) : pick(WORDS)));
      return cap(out.join(' ')) + '.';
    },
  };
}

type Lang = 'ts' | 'py' | 'go' | 'java' | 'rs' | 'md';
/** Shares of the tree, out of 20. */
const MIX: readonly Lang[] = ['ts', 'ts', 'ts', 'ts', 'ts', 'ts', 'ts', 'py', 'py', 'py', 'py', 'go', 'go', 'go', 'java', 'java', 'java', 'rs', 'md', 'md'];
const FILES_PER_PACKAGE = 40;

function tsFile(n: Names, imports: string[]): string {
  const lines = [`// ${n.sentence(9)}`, ...imports.map((m) => `import { ${n.pascal(2)} } from '../${m}';`), ''];
  for (let d = n.int(2, 5); d > 0; d--) {
    if (n.int(0, 2) === 0) {
      const cls = n.pascal(2);
      lines.push('/**', ` * ${n.sentence(10)}`, ' */', `export class ${cls} {`, `  private readonly ${n.noun()}s = new Map<string, number>();`);
      for (let m = n.int(1, 4); m > 0; m--) {
        const method = n.camel(1);
        lines.push('', `  /** ${n.sentence(7)} */`, `  ${method}(${n.noun()}: string, limit = ${n.int(1, 100)}): number {`, `    const ${n.noun()} = this.${n.noun()}s.get(${n.noun()}) ?? 0;`, `    if (limit > ${n.int(1, 50)}) throw new Error('${n.sentence(5)}');`, `    return ${n.noun()} + limit;`, '  }');
      }
      lines.push('}', '');
    } else {
      const fn = n.camel(2);
      lines.push(`/** ${n.sentence(8)} */`, `export function ${fn}(${n.noun()}: ${n.pascal(1)}, options: { ${n.noun()}?: boolean } = {}): string[] {`, `  const out: string[] = [];`, `  for (const ${n.noun()} of [${n.int(1, 9)}, ${n.int(1, 9)}]) out.push(\`${n.noun()}-\${${n.noun()}}\`);`, `  return options.${n.noun()} ? out : out.reverse();`, '}', '');
    }
  }
  return lines.join('\n');
}

function pyFile(n: Names, imports: string[]): string {
  const lines = [`"""${n.sentence(10)}"""`, ...imports.map((m) => `from ..${m.replace(/\//g, '.')} import ${n.pascal(2)}`), ''];
  for (let d = n.int(2, 5); d > 0; d--) {
    if (n.int(0, 1) === 0) {
      lines.push('', `class ${n.pascal(2)}:`, `    """${n.sentence(8)}"""`, '');
      for (let m = n.int(1, 3); m > 0; m--) lines.push(`    def ${n.snake(1)}(self, ${n.noun()}, limit=${n.int(1, 99)}):`, `        # ${n.sentence(6)}`, `        return [${n.noun()} for ${n.noun()} in range(limit)]`, '');
    } else {
      lines.push('', `def ${n.snake(2)}(${n.noun()}, ${n.noun()}=None):`, `    """${n.sentence(7)}"""`, `    if ${n.noun()} is None:`, `        raise ValueError("${n.sentence(4)}")`, `    return {"${n.noun()}": ${n.noun()}}`);
    }
  }
  return lines.join('\n') + '\n';
}

function goFile(n: Names, pkg: string, imports: string[]): string {
  const lines = [`// Package ${pkg} ${n.sentence(8).toLowerCase()}`, `package ${pkg}`, '', 'import (', '\t"fmt"', ...imports.map((m) => `\t"example.com/gen/${m}"`), ')', ''];
  for (let d = n.int(2, 5); d > 0; d--) {
    const t = n.pascal(2);
    lines.push(`// ${t} ${n.sentence(7).toLowerCase()}`, `type ${t} struct {`, `\t${n.pascal(1)} string`, `\t${n.pascal(1)} int`, '}', '');
    lines.push(`// ${n.pascal(2)} ${n.sentence(6).toLowerCase()}`, `func (x *${t}) ${n.pascal(2)}(${n.noun()} string) error {`, `\treturn fmt.Errorf("${n.sentence(4)}: %s", ${n.noun()})`, '}', '');
  }
  return lines.join('\n');
}

function javaFile(n: Names, pkg: string, cls: string, imports: string[]): string {
  const lines = [`package gen.${pkg};`, '', ...imports.map((m) => `import gen.${m.replace(/\//g, '.')};`), '', '/**', ` * ${n.sentence(12)}`, ' */', `public class ${cls} {`, `  private final java.util.Map<String, Integer> ${n.noun()}s = new java.util.HashMap<>();`];
  for (let m = n.int(2, 6); m > 0; m--) {
    lines.push('', `  /** ${n.sentence(7)} */`, `  public int ${n.camel(1)}(String ${n.noun()}, int limit) {`, `    // ${n.sentence(5)}`, `    if (limit > ${n.int(1, 40)}) throw new IllegalArgumentException("${n.sentence(4)}");`, `    return limit * ${n.int(2, 9)};`, '  }');
  }
  lines.push('}', '');
  return lines.join('\n');
}

function rsFile(n: Names, imports: string[]): string {
  const lines = [`//! ${n.sentence(9)}`, ...imports.map((m) => `use crate::${m.replace(/\//g, '::')};`), ''];
  for (let d = n.int(2, 4); d > 0; d--) {
    const t = n.pascal(2);
    lines.push(`/// ${n.sentence(8)}`, '#[derive(Debug, Clone)]', `pub struct ${t} {`, `    pub ${n.noun()}: String,`, `    pub ${n.noun()}_count: usize,`, '}', '', `impl ${t} {`);
    for (let m = n.int(1, 3); m > 0; m--) lines.push(`    /// ${n.sentence(6)}`, `    pub fn ${n.snake(1)}(&self, limit: usize) -> Option<usize> {`, `        if limit > ${n.int(1, 60)} { return None; }`, `        Some(limit + self.${n.noun()}_count)`, '    }');
    lines.push('}', '');
  }
  return lines.join('\n');
}

function mdFile(n: Names, title: string): string {
  const lines = [`# ${title}`, '', n.sentence(14), n.sentence(12), ''];
  for (let s = n.int(2, 4); s > 0; s--) {
    lines.push(`## ${n.pascal(2).replace(/([a-z])([A-Z])/g, '$1 $2')}`, '', n.sentence(16), n.sentence(10), '', '```sh', `gen ${n.noun()} --${n.noun()} ${n.int(1, 99)}`, '```', '');
  }
  return lines.join('\n');
}

/**
 * Writes (or reuses) a tree of `files` files under `dir`. A marker beside it records what was
 * written; a tree with another size or an older generator version is written again.
 */
export function generateTree(dir: string, files: number, seed = 1): GeneratedTree {
  const marker = `${dir}.json`;
  const key = JSON.stringify({ files, seed, version: 1 });
  if (fs.existsSync(marker)) {
    const saved = JSON.parse(fs.readFileSync(marker, 'utf8')) as GeneratedTree & { key: string };
    if (saved.key === key && fs.existsSync(dir)) return { root: saved.root, files: saved.files, bytes: saved.bytes, parseable: saved.parseable };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const n = namesFrom(seededRandom(seed));
  const packages = Math.ceil(files / FILES_PER_PACKAGE);
  const modulePath = (p: number, f: number) => `pkg${Math.floor(p / 50)}/${WORDS[p % WORDS.length]}${p}/m${f}`;
  let bytes = 0;
  let written = 0;
  let parseable = 0;
  for (let p = 0; p < packages && written < files; p++) {
    const pkgDir = path.join(dir, ...modulePath(p, 0).split('/').slice(0, 2));
    fs.mkdirSync(pkgDir, { recursive: true });
    const pkg = `${WORDS[p % WORDS.length]}${p}`;
    for (let f = 0; f < FILES_PER_PACKAGE && written < files; f++, written++) {
      const lang = n.pick(MIX);
      // Imports of modules in this and nearby packages: a graph for packs to resolve.
      const imports = Array.from({ length: n.int(0, 3) }, () => modulePath(Math.max(0, p - n.int(0, 3)), n.int(0, FILES_PER_PACKAGE - 1)));
      const cls = n.pascal(2);
      const text =
        lang === 'ts' ? tsFile(n, imports)
        : lang === 'py' ? pyFile(n, imports)
        : lang === 'go' ? goFile(n, pkg, imports)
        : lang === 'java' ? javaFile(n, pkg, cls, imports)
        : lang === 'rs' ? rsFile(n, imports)
        : mdFile(n, cls);
      const name = lang === 'java' ? `${cls}${f}.java` : `m${f}.${lang}`;
      fs.writeFileSync(path.join(pkgDir, name), text);
      bytes += Buffer.byteLength(text);
      if (lang !== 'md') parseable++;
    }
  }
  fs.writeFileSync(path.join(dir, 'README.md'), `# Generated tree\n\n${written} files written by Cairn's bench (src/bench/generate.ts, seed ${seed}).\n`);
  const tree = { root: dir, files: written + 1, bytes, parseable };
  fs.writeFileSync(marker, JSON.stringify({ ...tree, key }));
  return tree;
}
