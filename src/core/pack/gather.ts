// A pack's first steps: the candidates for a task. What the task names exactly (spans, files,
// symbols), what matches its words, the best spans of the files ranked for it, then what the
// best of those call, import and are imported by, their tests and the docs that mention them.
import { isTestPath } from '../index/fields';
import { bucketOf } from '../languages';
import { round } from '../search/search';
import type { FileHit, IndexFreshness, SearchHit } from '../search/types';
import type { Diagnostic } from '../types';
import { exactNames } from '../providers/providers';
import { byScore, CandidatePool, dependency, FILE_RANK_PART, LEXICAL_WEIGHT, total, type Candidate } from './candidates';
import { bestChunk, testsFor, type PackContext } from './context';
import type { PackOptions, PackRelation, RejectedFile } from './types';

/**
 * The best file of the file ranking gives its best span this much (relative to the file's score),
 * more than any lexical chunk: within a file, the spans file search picks come first.
 */
const FILE_RANK_WEIGHT = 3;
/**
 * Files of the file ranking whose spans become candidates, and spans taken from each: the pack
 * shows the files `search --group file` ranks first, as many as a result page holds.
 */
export const RANKED_FILES = 10;
const SPANS_PER_RANKED_FILE = 2;
/**
 * Files asked of file search. Its first files depend on how many it is asked for (a deeper
 * list scores deeper pools, and a task text's keyword pool is three times the files asked), so
 * the pack asks for a full result list, as `cairn eval` measures `search --group file`, and
 * keeps the first RANKED_FILES.
 */
const FILE_RANKING_DEPTH = 100;

const SPAN_IN_TASK = /([\w@./-]+\.[A-Za-z0-9]{1,8}):(\d+)(?:-(\d+))?/g;
const PATH_IN_TASK = /(?:^|[\s(`'"])((?:[\w@.-]+\/)+[\w@.-]+\.[A-Za-z0-9]{1,8})(?=$|[\s)`'",:;!?])/g;
const CALLED = /\b([A-Za-z_$][\w$]*)\s*(?:\(|<[\w\s,]*>\s*\()|\bnew\s+([A-Z][\w$]*)|\b([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b/g;
const COMMON_CALLS = new Set(['if', 'for', 'while', 'switch', 'return', 'function', 'catch', 'print', 'len', 'require', 'import', 'super', 'constructor', 'String', 'Number', 'Boolean', 'Object', 'Array', 'Promise', 'Error', 'Map', 'Set', 'JSON', 'Math', 'Date', 'console', 'log', 'push', 'get', 'set', 'map', 'filter', 'then']);

export interface Gathered {
  pool: CandidatePool;
  /** What the lexical search said: the pack reports its index freshness, warnings and diagnostics. */
  searched: { index: IndexFreshness; warnings: string[]; diagnostics: Diagnostic[] };
  /** Definitions a seed's call reaches only by a shared name, each with why it was not taken. */
  sharedNameOnly: RejectedFile[];
  /** The files file search ranks for the task, best first: the order of the must-inspect files. */
  fileOrder: string[];
}

export async function gatherCandidates(ctx: PackContext, task: string, options: PackOptions): Promise<Gathered> {
  const pool = new CandidatePool();
  addNamedInTask(ctx, task, pool);
  const searched = await addLexical(ctx, task, options, pool);
  const fileOrder = await addRankedFileSpans(ctx, task, options, pool);
  const sharedNameOnly = await expandFromSeeds(ctx, pool);
  return { pool, searched, sharedNameOnly, fileOrder };
}

/** 1a. Exact spans, files and names in the task. */
function addNamedInTask(ctx: PackContext, task: string, pool: CandidatePool): void {
  for (const m of task.matchAll(SPAN_IN_TASK)) {
    const p = (m[1] as string).replace(/^\.\//, '');
    if (!ctx.isIndexed(p)) continue;
    const hit = ctx.spanAt(p, Number(m[2]), m[3] ? Number(m[3]) : undefined);
    if (hit) pool.add(hit, 'named-span', `the task names ${m[0]}`, [{ kind: 'match', name: 'exact id in task', value: 10 }]);
  }
  for (const m of task.matchAll(PATH_IN_TASK)) {
    const p = (m[1] as string).replace(/^\.\//, '');
    if (!ctx.isIndexed(p) || pool.all().some((c) => c.hit.path === p)) continue;
    const first = ctx.chunksOf(p).find((h) => h.kind !== 'code') ?? ctx.chunksOf(p)[0];
    if (first) pool.add(first, 'named-file', `the task names the file ${p}`, [{ kind: 'match', name: 'exact path in task', value: 8 }]);
  }
  for (const name of exactNames(task)) {
    for (const def of ctx.definitions(name, 3)) pool.add(def, 'named-symbol', `defines \`${name}\`, named in the task`, [{ kind: 'match', name: `exact symbol ${name} in task`, value: 6 }]);
  }
}

/** 1b. Lexical candidates: the provider's hits for the task's words. */
async function addLexical(ctx: PackContext, task: string, options: PackOptions, pool: CandidatePool): Promise<Gathered['searched']> {
  const searched = await ctx.search(plainWords(task), { provider: options.provider ?? 'hybrid', limit: 30, languages: options.languages, paths: options.paths, crossReferences: false, previewLines: 0 });
  const top = searched.results[0]?.score ?? 1;
  searched.results.forEach((hit) => {
    const lexical = round((hit.score / top) * LEXICAL_WEIGHT);
    // No search rank in the reason: the pack reorders its items, and "rank 8" on item 1 reads as a contradiction.
    pool.add(hit, 'lexical', "matches the task's words", [{ kind: 'match', name: 'lexical match with the task', value: lexical }]);
  });
  return { index: searched.index, warnings: searched.warnings, diagnostics: searched.diagnostics };
}

/** 1c. The best spans of the best files; returns the files in the file ranking's order. */
async function addRankedFileSpans(ctx: PackContext, task: string, options: PackOptions, pool: CandidatePool): Promise<string[]> {
  if (!ctx.searchFiles) return [];
  // The task as written: its frames, diff headers and quoted messages are read from its lines
  // and quotes, which plainWords would flatten away. The index ranks, as `search --group file`
  // does by default, so the pack's files are the ones file search lists for the same text.
  const ranked = await ctx.searchFiles(task, { provider: 'index', limit: FILE_RANKING_DEPTH, languages: options.languages, paths: options.paths, previewLines: 0 });
  const topFile = ranked.files[0]?.score || 1;
  const order: string[] = [];
  for (const file of ranked.files.slice(0, RANKED_FILES)) {
    // Tests and vendored copies keep their place too: file search already weighs them, and a
    // pack that skipped them would no longer show the files file search shows.
    const spans = file.spans.length ? file.spans.slice(0, SPANS_PER_RANKED_FILE) : [bestChunk(ctx, file.path)].filter((h): h is SearchHit => h !== undefined);
    spans.forEach((span, i) => {
      const value = round(((FILE_RANK_WEIGHT * file.score) / topFile) * (i === 0 ? 1 : 0.5));
      pool.add(span, 'lexical', fileReason(file), [{ kind: 'match', name: FILE_RANK_PART, value }]);
    });
    if (spans.length) order.push(file.path);
  }
  return order;
}

/**
 * 2. Expansion from the seeds along the code's structure: definitions they call, files they
 * import and that import them, tests named after them, docs that mention them. Returns the
 * calls that reach a definition by a shared name only.
 */
async function expandFromSeeds(ctx: PackContext, pool: CandidatePool): Promise<RejectedFile[]> {
  // Seeds are chosen on their own matches, as before the file rank: it orders the pack, while
  // what the seeds call, import and document is found from the spans that match best.
  const ownMatch = (c: Candidate): Candidate => ({ ...c, parts: c.parts.filter((p) => !(p.kind === 'match' && p.name === FILE_RANK_PART)) });
  const seeds = pool.all().map((c) => ({ c, own: ownMatch(c) })).sort((a, b) => byScore(a.own, b.own)).slice(0, 6).map((x) => x.c);
  const seedPaths = [...new Set(seeds.map((s) => s.hit.path))];
  const sharedNameOnly: RejectedFile[] = [];
  // Only code calls: a name in prose (`res.json()` in a changelog) says nothing about what calls what.
  for (const seed of seeds.filter((s) => bucketOf(s.hit.language) === 'code')) {
    const strength = Math.min(1, total(seed.parts) / LEXICAL_WEIGHT);
    const text = ctx.text(seed.hit) ?? '';
    for (const name of calledNames(text).slice(0, 12)) {
      if (name === seed.hit.symbol) continue;
      const callee = calledDefinition(ctx, seed.hit, name);
      if (!callee) continue;
      if ('sharedName' in callee) {
        if (!sharedNameOnly.some((r) => r.docid === callee.sharedName.docid)) {
          sharedNameOnly.push({ path: callee.sharedName.path, docid: callee.sharedName.docid, reason: `only shares the common name \`${name}\` with a call in ${seed.hit.docid} (${callee.why})` });
        }
        continue;
      }
      if (callee.def.docid === seed.hit.docid) continue;
      pool.add(callee.def, 'called-definition', `defines \`${name}\`, used by ${seed.hit.docid}`, [dependency('called-definition', strength)]);
    }
  }
  for (const p of seedPaths.slice(0, 4)) {
    const strength = Math.min(1, total(seeds.find((s) => s.hit.path === p)?.parts ?? []) / LEXICAL_WEIGHT);
    for (const imported of ctx.graph.importsOf(p).slice(0, 6)) {
      const best = bestChunk(ctx, imported);
      if (best) pool.add(best, 'imported', `imported by ${p}`, [dependency('imported', strength)]);
    }
    for (const importer of ctx.graph.importersOf(p).slice(0, 8)) {
      const best = bestChunk(ctx, importer);
      if (!best) continue;
      const rel: PackRelation = isTestPath(importer) ? 'test' : 'importer';
      pool.add(best, rel, rel === 'test' ? `test importing ${p}` : `imports ${p}`, [dependency(rel, strength)]);
    }
    for (const t of testsFor(ctx, p)) {
      const best = bestChunk(ctx, t);
      if (best) pool.add(best, 'test', `test for ${p} (by name)`, [dependency('test', strength)]);
    }
  }
  const seedSymbols = [...new Set(seeds.map((s) => s.hit.symbol).filter((s) => s.length > 2))].slice(0, 4);
  if (seedSymbols.length) {
    const docs = await ctx.search(seedSymbols.join(' '), { scope: 'docs', limit: 4, crossReferences: false, previewLines: 0 });
    for (const d of docs.results) pool.add(d, 'doc', `documentation mentioning ${seedSymbols.join(', ')}`, [dependency('doc', 0.8)]);
  }
  return sharedNameOnly;
}

/** Why file search ranks a file for the task, in words: the structure the task points at, else its words. */
function fileReason(file: FileHit): string {
  const said: string[] = [];
  for (const part of file.scoreBreakdown) {
    if (part.kind !== 'match') continue;
    const colon = part.name.indexOf(': ');
    const what = colon > 0 ? part.name.slice(colon + 2) : '';
    switch (colon > 0 ? part.name.slice(0, colon) : '') {
      case 'traceback-frame':
        said.push(`a frame of the task's traceback is in it (${what})`);
        break;
      case 'diff-header':
        said.push("the task's diff changes it");
        break;
      case 'path-named-in-text':
        said.push(`the task names it (${what})`);
        break;
      case 'definition-named-in-text':
        said.push(`it defines \`${what}\`, named in the task`);
        break;
    }
  }
  return said.length ? said.join('; ') : "matches the task's words";
}

/**
 * A task is prose, not a query: `src/a.ts:10-20`, `-v` or `C++` must not read as lunr fields,
 * exclusions or operators. Spans and paths in it were already taken as exact candidates.
 */
export function plainWords(task: string): string {
  return task
    .replace(/[:+~^*\\]/g, ' ')
    .replace(/(^|\s)-+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Names a chunk calls or instantiates: most frequent first, then in order of appearance; `obj.method()` calls count half. */
export function calledNames(text: string): string[] {
  const weight = new Map<string, number>();
  const first = new Map<string, number>();
  for (const m of text.matchAll(CALLED)) {
    const name = (m[1] ?? m[2] ?? m[3]) as string;
    if (!name || COMMON_CALLS.has(name) || name.length < 3) continue;
    const member = m.index !== undefined && m.index > 0 && text[m.index - 1] === '.';
    weight.set(name, (weight.get(name) ?? 0) + (member ? 0.5 : 1));
    if (!first.has(name)) first.set(name, m.index ?? 0);
  }
  return [...weight.keys()].sort((a, b) => (weight.get(b) as number) - (weight.get(a) as number) || (first.get(a) as number) - (first.get(b) as number));
}

/**
 * Methods of the languages' own objects and collections (JS Object/Array/Map/Set/String,
 * Python dict/list/str, Java Object/Collection): `items.add(x)`, `Object.keys(o)`,
 * `d.update(...)` reach these, not the one `add` some file of the repository defines. (Across
 * the development corpus, `keys`, `pop`, `update`, `toString` have one or two definitions per
 * repository and hundreds of calls that are the builtin; names like `use` or `send` do reach
 * the repository's own definition, so they are not listed.)
 */
export const BUILTIN_MEMBER_NAMES: ReadonlySet<string> = new Set([
  'add', 'append', 'apply', 'bind', 'call', 'clear', 'concat', 'contains', 'copy', 'count', 'delete', 'endswith', 'entries', 'equals', 'every', 'extend',
  'find', 'forEach', 'has', 'hashCode', 'includes', 'index', 'indexOf', 'insert', 'isEmpty', 'items', 'join', 'keys', 'length', 'lower', 'pop', 'push',
  'put', 'reduce', 'remove', 'replace', 'reverse', 'setdefault', 'shift', 'size', 'slice', 'some', 'sort', 'splice', 'split', 'startswith', 'strip',
  'toJSON', 'toString', 'trim', 'unshift', 'update', 'upper', 'valueOf', 'values',
]);

/** A name defined in this many files or more cannot be resolved by its name alone. */
export const AMBIGUOUS_NAME_FILES = 3;

/**
 * The definition a call to `name` in `seed` reaches, when the code says so: one in the seed's
 * own file, in a file it imports (or one those import: packages re-export), or (Go) in its
 * package. Without that backing a name tells only when it is distinctive: not a builtin member
 * name and defined in fewer than AMBIGUOUS_NAME_FILES files. Otherwise the shared name is all
 * there is, and it is reported as that.
 */
function calledDefinition(ctx: PackContext, seed: SearchHit, name: string): { def: SearchHit } | { sharedName: SearchHit; why: string } | undefined {
  const defs = ctx.definitions(name, 8);
  if (defs.length === 0) return undefined;
  const direct = new Set(ctx.graph.importsOf(seed.path));
  const indirect = new Set([...direct].flatMap((p) => ctx.graph.importsOf(p)));
  const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
  const samePackage = (d: SearchHit) => d.language === 'go' && seed.language === 'go' && dirOf(d.path) === dirOf(seed.path);
  const backed = defs.find((d) => d.path === seed.path || direct.has(d.path) || samePackage(d)) ?? defs.find((d) => indirect.has(d.path));
  if (backed) return { def: backed };
  const files = new Set(defs.map((d) => d.path)).size;
  if (!BUILTIN_MEMBER_NAMES.has(name) && files < AMBIGUOUS_NAME_FILES) return { def: defs[0] as SearchHit };
  const what = files >= AMBIGUOUS_NAME_FILES ? `defined in ${files >= 8 ? 'at least 8' : files} files` : 'also a builtin method';
  return { sharedName: defs[0] as SearchHit, why: `${what}; no import of ${seed.path} leads to it` };
}
