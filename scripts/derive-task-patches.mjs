#!/usr/bin/env node
// Adds to each SWE-bench-style task its fix's diff on the gold files, as `patch`, so that
// `cairn eval --tasks` knows the lines the fix changed and scores gold *functions*, not only
// gold files (src/eval/tasks.ts reads a task's `patch` with goldOfPatch, and prefers it to
// `gold_files` when a line has both).
//
//   node scripts/derive-task-patches.mjs DATASET.jsonl --corpus DIR [--out FILE]
//
// DIR holds a clone with full history of each task's repository, named as the part of `repo`
// after the slash (`pvlib/pvlib-python` -> DIR/pvlib-python). The clones are only read
// (git log, merge-base, diff): their working trees and HEADs are left alone.
//
// The fix of a task is found from its pull request, the trailing number of `instance_id`
// (`sqlfluff__sqlfluff-1625` -> #1625): a commit reachable from any ref whose message names that
// pull request (`Merge pull request #N`, a squash's `(#N)` suffix, `pull request #N`, `PR #N`),
// that descends from `base_commit`, and whose own change (from its first parent: for a merge,
// the pull request's changes) touches a gold file. Of several (a fix cherry-picked onto release
// branches), the one with the fewest commits after the base commit wins.
//
// The patch is `git diff <base_commit> <fix> -- <gold files>`: its hunks are located in the base
// commit's version of each file, which is where goldOfPatch reads them. It is the pull
// request's own diff exactly when no other commit changed a gold file between the base commit
// and the fix's first parent, so that is checked, and a task where another commit did is left
// unchanged (its base-to-fix diff would count that commit's changes as gold, and the pull
// request's own diff is located in another version of the file).
//
// Every task keeps its fields (`gold_files` too); a task whose fix is not found keeps its line
// exactly, and stderr says why. The derived JSONL goes to stdout, or to FILE with --out.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = 'usage: node scripts/derive-task-patches.mjs DATASET.jsonl --corpus DIR [--out FILE]';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { corpus: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1 || !opts.corpus) {
  console.error(USAGE);
  process.exit(2);
}
const [dataset] = positionals;

/** Runs git read-only in `dir`; paths given after `--` are taken literally, never as globs. */
function git(dir, args, { allowFail = false } = {}) {
  try {
    return execFileSync('git', ['-C', dir, '--literal-pathspecs', '--no-pager', ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', allowFail ? 'ignore' : 'pipe'],
    });
  } catch (e) {
    if (allowFail) return null;
    throw e;
  }
}

/** True when `git merge-base --is-ancestor a b` says a is b or an ancestor of b. */
const isAncestor = (dir, a, b) => git(dir, ['merge-base', '--is-ancestor', a, b], { allowFail: true }) !== null;

/** A diff in the one format goldOfPatch reads, whatever the clone's diff settings. */
const DIFF = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--unified=3', '--src-prefix=a/', '--dst-prefix=b/'];

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a commit message names pull request `n` (not an issue mentioned in passing, as "see #n" may be). */
function namesPullRequest(message, n) {
  const num = `${escapeRe(n)}(?!\\d)`;
  return new RegExp(`Merge pull request #${num}|\\(#${num}\\)|pull request #${num}|\\bPR #?${num}`, 'i').test(message);
}

/** Commits of any ref whose message names pull request `n`, each with its parents. */
function commitsNaming(dir, n) {
  const out = git(dir, ['log', '--all', '-E', `--grep=#${n}([^0-9]|$)`, '--format=%H%x1f%P%x1f%B%x1e']);
  return out
    .split('\x1e')
    .map((rec) => rec.replace(/^\n/, ''))
    .filter((rec) => rec !== '')
    .map((rec) => {
      const [hash, parents, message] = rec.split('\x1f');
      return { hash, parents: parents.split(' ').filter(Boolean), message };
    })
    .filter((c) => namesPullRequest(c.message, n));
}

/** The fix of one task, or the reason there is none. */
function findFix(dir, task, n) {
  const base = task.base_commit;
  const gold = task.gold_files;
  if (git(dir, ['cat-file', '-e', `${base}^{commit}`], { allowFail: true }) === null) return { why: `base commit ${base} is not in ${dir}` };
  const named = commitsNaming(dir, n);
  if (named.length === 0) return { why: `no commit message names pull request #${n}` };
  const found = [];
  const rejected = [];
  for (const c of named) {
    const short = c.hash.slice(0, 10);
    if (c.parents.length === 0) {
      rejected.push(`${short} has no parent`);
      continue;
    }
    if (!isAncestor(dir, base, c.hash)) {
      rejected.push(`${short} does not descend from the base commit`);
      continue;
    }
    // The commit's own change: from its first parent (for a merge, what the pull request brought in).
    const parent = c.parents[0];
    const touched = git(dir, [...DIFF, '--name-only', parent, c.hash, '--', ...gold]).split('\n').filter(Boolean);
    if (touched.length === 0) {
      rejected.push(`${short} changes no gold file`);
      continue;
    }
    const distance = Number(git(dir, ['rev-list', '--count', `${base}..${c.hash}`]).trim());
    found.push({ ...c, parent, touched, distance });
  }
  if (found.length === 0) return { why: `no commit naming #${n} fits (${rejected.join('; ')})` };
  found.sort((a, b) => b.touched.length - a.touched.length || a.distance - b.distance);
  const fix = found[0];
  const between = git(dir, [...DIFF, '--name-only', base, fix.parent, '--', ...gold]).split('\n').filter(Boolean);
  if (between.length > 0) {
    return { why: `${fix.hash.slice(0, 10)} fixes #${n}, but other commits change ${between.join(', ')} between the base commit and its parent` };
  }
  const patch = git(dir, [...DIFF, base, fix.hash, '--', ...gold]);
  return { fix, patch };
}

const inLines = fs.readFileSync(dataset, 'utf8').split('\n');
if (inLines.at(-1) === '') inLines.pop();
const outLines = [];
let tasks = 0;
let patched = 0;
for (const [i, raw] of inLines.entries()) {
  const line = raw.trim();
  if (line === '') {
    outLines.push(raw);
    continue;
  }
  tasks++;
  const where = `${dataset}:${i + 1}`;
  let task;
  try {
    task = JSON.parse(line);
  } catch (e) {
    console.error(`${where}: not valid JSON (${e.message}), kept as is`);
    outLines.push(raw);
    continue;
  }
  const id = String(task.instance_id ?? '?');
  const keep = (why) => {
    console.error(`${where} (${id}): no patch, kept as is: ${why}`);
    outLines.push(raw);
  };
  const n = /-(\d+)$/.exec(id)?.[1];
  if (!n) {
    keep('instance_id does not end in a pull request number');
    continue;
  }
  if (typeof task.repo !== 'string' || !task.repo.includes('/') || typeof task.base_commit !== 'string') {
    keep('needs "repo" (owner/name) and "base_commit"');
    continue;
  }
  if (!Array.isArray(task.gold_files) || task.gold_files.length === 0) {
    keep('needs "gold_files" (the patch is restricted to them)');
    continue;
  }
  const dir = path.join(opts.corpus, task.repo.slice(task.repo.indexOf('/') + 1));
  if (!fs.existsSync(dir)) {
    keep(`no clone at ${dir}`);
    continue;
  }
  const result = findFix(dir, task, n);
  if (!result.patch) {
    keep(result.why);
    continue;
  }
  const missed = task.gold_files.filter((f) => !result.fix.touched.includes(f));
  const note = missed.length > 0 ? ` (does not change ${missed.join(', ')})` : '';
  console.error(`${where} (${id}): fix ${result.fix.hash.slice(0, 10)}, ${result.fix.distance} commit(s) after the base commit${note}`);
  outLines.push(JSON.stringify({ ...task, patch: result.patch }));
  patched++;
}

const output = `${outLines.join('\n')}\n`;
if (opts.out) fs.writeFileSync(opts.out, output);
else process.stdout.write(output);
console.error(`${patched} of ${tasks} tasks got a patch${opts.out ? `; wrote ${opts.out}` : ''}`);
