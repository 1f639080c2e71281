// The index's references merged with what language servers said about the same definitions.
// Plain functions of plain data (no `vscode`), so they are tested in plain Node. A reference a
// language server lists is certain, whatever the index thought; one only the index has keeps
// its certainty, marked as the index's; one only the server has is added.
import type { ReferenceDefinition, ReferencesResponse, SourcedReferenceHit, SourcedReferencesResponse } from '../../core/api';

/** A place a language server named: 1-based line and UTF-16 column, as the index's references. */
export interface ServerLocation {
  path: string;
  line: number;
  column: number;
  endColumn: number;
  /** The line as the editor has it, trimmed. */
  text: string;
  /** The function or method it is in, when the call hierarchy said. */
  context?: string;
}

/** What one definition's language server answered. */
export interface ServerAnswer {
  definition: ReferenceDefinition;
  /** `answered`: the server listed references; `none`: no server (or nothing) for this language; `timeout`/`failed`: fell back to the index; `off`: not asked (the timeout setting is 0); `pending`: asked, no answer yet (the index's answer is shown meanwhile). */
  status: 'answered' | 'none' | 'timeout' | 'failed' | 'off' | 'pending';
  locations: ServerLocation[];
  /** Why it failed. */
  error?: string;
}

const keyOf = (r: { path: string; line: number; column: number }): string => `${r.path}:${r.line}:${r.column}`;

/**
 * One answer from the index's and the servers': deduplicated by `path:line:column`, certain
 * first (the index's order kept within each), counts and files adjusted, at most `limit`.
 */
export function mergeReferences(index: ReferencesResponse, answers: readonly ServerAnswer[], limit: number): SourcedReferencesResponse {
  const merged: SourcedReferenceHit[] = index.references.map((r) => ({ ...r, source: 'index' }));
  const byKey = new Map(merged.map((r) => [keyOf(r), r]));
  const definitionAt = new Set(index.definitions.map(keyOf));
  const byFile = new Map(index.byFile.map((f) => [f.path, { ...f }]));
  let total = index.total;
  let certain = index.certain;
  for (const answer of answers) {
    if (answer.status !== 'answered') continue;
    for (const loc of answer.locations) {
      const known = byKey.get(keyOf(loc));
      if (known) {
        if (known.source === 'language server') continue;
        if (known.certainty !== 'certain') {
          certain++;
          const file = byFile.get(known.path);
          if (file) file.certain++;
          known.reason = 'the language server resolves it to the definition';
        }
        known.certainty = 'certain';
        known.source = 'language server';
        continue;
      }
      const added: SourcedReferenceHit = {
        path: loc.path,
        line: loc.line,
        column: loc.column,
        endColumn: loc.endColumn,
        role: definitionAt.has(keyOf(loc)) ? 'definition' : 'code',
        context: loc.context ?? '',
        contextKind: 'code',
        text: loc.text,
        certainty: 'certain',
        reason: 'found by the language server',
        language: answer.definition.language,
        source: 'language server',
      };
      merged.push(added);
      byKey.set(keyOf(added), added);
      total++;
      certain++;
      const file = byFile.get(loc.path);
      if (file) {
        file.references++;
        file.certain++;
      } else byFile.set(loc.path, { path: loc.path, language: added.language, references: 1, certain: 1 });
    }
  }
  // Stable: the index's order within certain and within name matches, servers' additions after the index's certain ones.
  const ordered = merged.map((r, i) => ({ r, i })).sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i).map((x) => x.r);
  const { references: _references, ...rest } = index;
  return {
    ...rest,
    references: ordered.slice(0, limit),
    byFile: [...byFile.values()].sort((a, b) => b.certain - a.certain || b.references - a.references || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    total,
    certain,
    truncated: index.truncated || ordered.length > limit,
    sources: describeSources(answers),
  };
}

const rank = (r: SourcedReferenceHit): number => (r.certainty === 'certain' ? 0 : 1);

/** `typescript language server for 1 definition; index only for python (no language server)`. */
export function describeSources(answers: readonly ServerAnswer[]): string {
  if (answers.length === 0) return 'the index only (no definition to ask a language server about)';
  const parts: string[] = [];
  const group = (status: ServerAnswer['status']) => answers.filter((a) => a.status === status);
  const languages = (list: readonly ServerAnswer[]) => [...new Set(list.map((a) => a.definition.language))].join(', ');
  const count = (n: number) => `${n} definition${n === 1 ? '' : 's'}`;
  const answered = group('answered');
  if (answered.length) parts.push(`${languages(answered)} language server for ${count(answered.length)}`);
  const none = group('none');
  if (none.length) parts.push(`the index only for ${languages(none)} (no language server answered)`);
  const late = group('timeout');
  if (late.length) parts.push(`the index only for ${count(late.length)} whose language server did not answer in time`);
  const pending = group('pending');
  if (pending.length) parts.push(`the index; asking the ${languages(pending)} language server about ${count(pending.length)}…`);
  const off = group('off');
  if (off.length) parts.push('the index only (language servers not asked: cairn.references.languageServerTimeout is 0)');
  const failed = group('failed');
  if (failed.length) parts.push(`the index only for ${count(failed.length)} whose language server failed (${failed[0]?.error ?? 'unknown error'})`);
  return parts.join('; ');
}
