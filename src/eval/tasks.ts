// Localization tasks in SWE-bench's format, one JSON object per line:
//
//   {"instance_id", "repo": "owner/name", "base_commit", "problem_statement",
//    "gold_files": [paths]  or  "patch": "a unified diff" (the patch is read when both are there)}
//
// A patch says more than a list of files: the lines its hunks remove or insert at, located in
// the base commit's version of each file, which is what gold *functions* are read from. A
// patch's context lines are not part of the change, so a hunk is walked line by line rather
// than taken whole from its header.
import { mergeRanges, type LineRange } from './diffRanges';

/** A file the task's fix changes, with the lines changed in the base commit (known from a patch only). */
export interface GoldFile {
  path: string;
  ranges?: LineRange[];
}

export interface LocalizationTask {
  instanceId: string;
  repo: string;
  baseCommit: string;
  problemStatement: string;
  /** Files of the base commit the fix changes (files the fix creates are not here: nothing can find them). */
  goldFiles: GoldFile[];
  /** True when the gold came from a patch, so changed lines (and gold functions) are known. */
  fromPatch: boolean;
  /** 1-based line of the task in its file. */
  line: number;
}

/** A malformed task file: the message names the file and line. */
export class TaskFileError extends Error {
  override readonly name = 'TaskFileError';
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** Strips git's `a/`/`b/` prefix (and a tab-separated timestamp) from a `---`/`+++` path. */
function diffPath(raw: string): string | null {
  const p = raw.split('\t')[0]?.trim() ?? '';
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

/**
 * The base-side files of a unified diff and the lines each changes there. A removed line is
 * changed itself; lines inserted between base lines n and n+1 mark n..n+1 (line 1 at the top),
 * as `oldRangesOfDiff` does for zero-context diffs. Files the diff creates are left out.
 */
export function goldOfPatch(patch: string): GoldFile[] {
  const files: GoldFile[] = [];
  let ranges: LineRange[] | null = null;
  let oldLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (oldLeft > 0 || newLeft > 0) {
      // Inside a hunk: its header's counts say where it ends.
      if (line.startsWith('\\')) continue; // "\ No newline at end of file"
      const tag = line[0] ?? ' ';
      if (tag === '-') {
        ranges?.push({ start: oldLine, end: oldLine });
        oldLine++;
        oldLeft--;
      } else if (tag === '+') {
        ranges?.push(oldLine <= 1 ? { start: 1, end: 1 } : { start: oldLine - 1, end: oldLine });
        newLeft--;
      } else {
        oldLine++;
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const from = diffPath(line.slice(4));
      i++;
      ranges = null;
      if (from === null) continue; // a new file: not in the base commit
      const existing = files.find((f) => f.path === from);
      ranges = existing?.ranges ?? [];
      if (!existing) files.push({ path: from, ranges });
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk) {
      const start = Number(hunk[1]);
      const oldCount = hunk[2] === undefined ? 1 : Number(hunk[2]);
      const newCount = /\+\d+,(\d+)/.exec(line)?.[1];
      oldLine = oldCount === 0 ? start + 1 : start;
      oldLeft = oldCount;
      newLeft = newCount === undefined ? 1 : Number(newCount);
    }
  }
  return files.map((f) => ({ path: f.path, ranges: mergeRanges(f.ranges ?? []) }));
}

const stringField = (o: Record<string, unknown>, key: string, where: string): string => {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '') throw new TaskFileError(`${where}: "${key}" must be a non-empty string`);
  return v;
};

/** One task from one parsed line; throws TaskFileError naming `where` when a field is missing or wrong. */
export function taskOf(value: unknown, where: string, line: number): LocalizationTask {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TaskFileError(`${where}: expected a JSON object`);
  const o = value as Record<string, unknown>;
  const instanceId = stringField(o, 'instance_id', where);
  const at = `${where} (${instanceId})`;
  const repo = stringField(o, 'repo', at);
  const baseCommit = stringField(o, 'base_commit', at);
  if (!/^[0-9a-f]{7,64}$/i.test(baseCommit)) throw new TaskFileError(`${at}: "base_commit" must be a commit id (hex), not ${JSON.stringify(baseCommit)}`);
  const problemStatement = stringField(o, 'problem_statement', at);
  let goldFiles: GoldFile[];
  let fromPatch = false;
  // A patch says more than a list of files, so a task with both is read from its patch
  // (scripts/derive-task-patches.mjs adds a fix's patch to tasks that keep their gold_files).
  if (o.patch !== undefined) {
    if (typeof o.patch !== 'string') throw new TaskFileError(`${at}: "patch" must be a string (a unified diff)`);
    goldFiles = goldOfPatch(o.patch);
    if (goldFiles.length === 0) throw new TaskFileError(`${at}: "patch" changes no file of the base commit (is it a unified diff?)`);
    fromPatch = true;
  } else if (o.gold_files !== undefined) {
    const list = o.gold_files;
    if (!Array.isArray(list) || list.length === 0 || list.some((p) => typeof p !== 'string' || p === '')) {
      throw new TaskFileError(`${at}: "gold_files" must be a non-empty list of paths`);
    }
    goldFiles = [...new Set(list as string[])].map((p) => ({ path: p.replace(/^\.\//, '') }));
  } else {
    throw new TaskFileError(`${at}: needs "gold_files" (a list of paths) or "patch" (a unified diff)`);
  }
  return { instanceId, repo, baseCommit, problemStatement, goldFiles, fromPatch, line };
}

/** Every task of a JSONL text (blank lines allowed); the first malformed line throws, naming `source:line`. */
export function parseTasks(text: string, source: string): LocalizationTask[] {
  const tasks: LocalizationTask[] = [];
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const where = `${source}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new TaskFileError(`${where}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const task = taskOf(value, where, i + 1);
    const earlier = seen.get(task.instanceId);
    if (earlier !== undefined) throw new TaskFileError(`${where}: instance_id ${task.instanceId} already appears on line ${earlier}`);
    seen.set(task.instanceId, i + 1);
    tasks.push(task);
  }
  if (tasks.length === 0) throw new TaskFileError(`${source}: no tasks (expected one JSON object per line)`);
  return tasks;
}
