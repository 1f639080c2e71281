// Exact text search with ripgrep (VS Code's own binary from @vscode/ripgrep), for literals and
// regular expressions the keyword index cannot answer. Matches are mapped onto the indexed
// chunk that contains them, so every provider answers with the same spans.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { Diagnostic } from '../types';

export interface RipgrepOptions {
  /** Path of the rg binary; the host passes it in. */
  rgPath?: string;
  /** Treat the query as a regular expression (default: a literal). */
  regex?: boolean;
  /** Case-insensitive match (for words of a sentence); overrides smart case. */
  ignoreCase?: boolean;
  /** Case-sensitive match (default: smart case — sensitive only when the query has capitals). */
  caseSensitive?: boolean;
  /** Stop after this many matching lines in total. */
  maxMatches?: number;
  timeoutMs?: number;
  /** rg globs (`src/**`, `!test/**`). */
  globs?: string[];
  signal?: AbortSignal;
}

export interface RipgrepMatch {
  path: string;
  line: number;
  text: string;
  /** Byte offsets of the submatches within the line. */
  submatches: Array<{ start: number; end: number }>;
}

export interface RipgrepResult {
  matches: RipgrepMatch[];
  truncated: boolean;
  diagnostics: Diagnostic[];
}

const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Runs rg in `root` and collects matching lines; several patterns match a line when any of
 * them does. Never throws: problems become diagnostics.
 */
export function ripgrep(root: string, pattern: string | readonly string[], options: RipgrepOptions = {}): Promise<RipgrepResult> {
  const rgPath = options.rgPath;
  if (!rgPath || !fs.existsSync(rgPath)) {
    return Promise.resolve({
      matches: [],
      truncated: false,
      diagnostics: [{ code: 'ripgrep-missing', severity: 'warning', message: `ripgrep is not available${rgPath ? ` at ${rgPath}` : ''}; exact text search is disabled` }],
    });
  }
  const maxMatches = options.maxMatches ?? 2000;
  const args = ['--json', '--no-messages', '--max-columns', '400', '--max-columns-preview', '--max-filesize', '32M', '--glob', '!.git'];
  args.push(options.ignoreCase ? '--ignore-case' : options.caseSensitive ? '--case-sensitive' : '--smart-case');
  if (!options.regex) args.push('--fixed-strings');
  for (const g of options.globs ?? []) args.push('--glob', g);
  if (typeof pattern === 'string') args.push('--', pattern, '.');
  else {
    for (const p of pattern) args.push('--regexp', p);
    args.push('--', '.');
  }

  return new Promise((resolve) => {
    const matches: RipgrepMatch[] = [];
    const diagnostics: Diagnostic[] = [];
    let truncated = false;
    let buffered = '';
    let bytes = 0;
    let stderr = '';
    let settled = false;
    const child = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, windowsHide: true });
    const timer = setTimeout(() => {
      diagnostics.push({ code: 'ripgrep-timeout', severity: 'warning', message: `ripgrep took longer than ${options.timeoutMs ?? 15000} ms; results are partial` });
      truncated = true;
      child.kill();
    }, options.timeoutMs ?? 15000);
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ matches, truncated, diagnostics });
    };
    const onLine = (line: string) => {
      if (!line) return;
      let msg: { type: string; data: { path?: { text?: string }; line_number?: number; lines?: { text?: string }; submatches?: Array<{ start: number; end: number }> } };
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.type !== 'match') return;
      const p = msg.data.path?.text;
      const n = msg.data.line_number;
      if (!p || !n) return;
      matches.push({
        path: p.replace(/^\.\//, '').replace(/\\/g, '/'),
        line: n,
        text: (msg.data.lines?.text ?? '').replace(/\r?\n$/, ''),
        submatches: (msg.data.submatches ?? []).map((s) => ({ start: s.start, end: s.end })),
      });
      if (matches.length >= maxMatches) {
        truncated = true;
        child.kill();
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_OUTPUT_BYTES) {
        truncated = true;
        child.kill();
        return;
      }
      buffered += chunk.toString('utf8');
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ABORT_ERR') {
        diagnostics.push({ code: 'ripgrep-failed', severity: 'warning', message: `ripgrep could not run: ${e.message}` });
      }
      finish();
    });
    child.on('close', (code) => {
      onLine(buffered);
      // 0 = matches, 1 = no match, 2 = error (a bad regex, unreadable files with --no-messages suppressed).
      if (code === 2 && matches.length === 0 && stderr.trim()) {
        diagnostics.push({ code: options.regex ? 'ripgrep-bad-pattern' : 'ripgrep-failed', severity: 'warning', message: stderr.trim().split('\n').slice(0, 3).join(' ') });
      }
      finish();
    });
  });
}
