// `cairn index --timings`: the stage times of a build as a table a person reads.
import { STAGES, type RefreshReport } from '../core/api';

/** What each stage covers, where its name alone does not say. */
const NOTES: Readonly<Record<string, string>> = {
  read: 'decoding UTF-8',
  hash: 'SHA-256 of each file',
  parse: 'tree-sitter, error scan',
  extract: 'definitions to chunks',
  definitions: 'nested definitions query',
  chunk: 'the rest of chunking',
  analyze: 'tokens and terms',
  transfer: 'packing results for the index thread',
  build: 'adding files to the segment',
  encode: 'segment sections',
  checksums: 'segment page checksums',
  write: 'segment files',
  commit: 'state table, manifest',
  'wait-read': 'index thread waiting for file reads',
  'wait-chunks': 'index thread waiting for chunk workers',
};

/** One line per stage that took time: milliseconds summed over threads, and its share of the work. */
export function formatTimings(timings: NonNullable<RefreshReport['timings']>, wallMs: number): string[] {
  const work = STAGES.filter((s) => !s.startsWith('wait-')).reduce((n, s) => n + (timings[s] ?? 0), 0);
  const lines = [`timings (ms summed over threads; ${Math.round(work)} ms of work in ${wallMs} ms):`];
  for (const stage of STAGES) {
    const ms = timings[stage];
    if (ms === undefined) continue;
    const share = stage.startsWith('wait-') ? '' : `${((100 * ms) / Math.max(1, work)).toFixed(1)}%`;
    const note = NOTES[stage] ? `  ${NOTES[stage]}` : '';
    lines.push(`  ${stage.padEnd(12)} ${String(Math.round(ms)).padStart(8)}  ${share.padStart(6)}${note}`);
  }
  return lines;
}
