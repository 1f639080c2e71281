// Task texts of about 4 KB made from the tree being measured, for the served task-text figure of
// issue #37 (a 4 KB issue text answered in <= 150 ms p95 on a 20k-file tree). Each kind is what
// an agent pastes: a stack trace, a diff, a feature request, a log, a bug report with a code
// block and an error message. They quote the tree's own definitions (names, paths, lines, code)
// so that the engine's structural evidence has work to do, as it would on a real issue; the
// choice is deterministic, so old and new builds answer the same texts.

/** A definition of the tree, as the bench exports it from an index. */
export interface TaskTextSource {
  path: string;
  startLine: number;
  symbol: string;
  /** Breadcrumb including the symbol (`Bar.baz`). */
  context: string;
  language: string;
  /** The definition's first lines. */
  lines: string[];
}

/** A chunk as an index exports it (`Engine.exportChunks`, `cairn export --format jsonl`). */
export interface ExportedChunk {
  path: string;
  startLine: number;
  symbol?: string;
  kind?: string;
  context?: string;
  language: string;
  text: string;
}

/**
 * The definition a chunk is, as the texts quote it: named by a plain word of four characters
 * or more (not a document section); undefined for any other chunk.
 */
export function taskTextSource(c: ExportedChunk): TaskTextSource | undefined {
  if (!c.symbol || c.kind === 'section' || !/^[A-Za-z_]\w{3,}$/.test(c.symbol)) return undefined;
  return { path: c.path, startLine: c.startLine, symbol: c.symbol, context: c.context ?? c.symbol, language: c.language, lines: c.text.split('\n').slice(0, 6) };
}

export interface TaskText {
  kind: 'trace' | 'diff' | 'feature' | 'log' | 'report';
  text: string;
}

export const TASK_TEXT_BYTES = 4096;

const PROSE = [
  'After upgrading to the latest release this stopped working for us, and we could not find a workaround in the documentation.',
  'It happens every time the application starts with the default configuration, but not when the cache is disabled.',
  'We expected the value to be kept between calls, as it was in the previous version, instead it is reset to its default.',
  'The same code works on the main branch from last month, so something in between must have changed the behaviour.',
  'Could you point me to the place where this is decided, or tell me whether this is intended?',
  'I am happy to open a pull request with a fix and a test if someone confirms the expected behaviour.',
];

/** Every source in a fixed order that spreads over the tree (a stride prime to the length). */
function spread<T>(xs: readonly T[], offset: number): T[] {
  if (xs.length === 0) return [];
  const stride = xs.length % 7919 === 0 ? 7907 : 7919;
  return Array.from({ length: xs.length }, (_, i) => xs[(i * stride + offset) % xs.length] as T);
}

/** Adds pieces until the text holds `size` characters (the last piece cut at a line). */
function fill(head: string, pieces: Iterable<string>, tail: string, size: number): string {
  let body = '';
  for (const p of pieces) {
    if (head.length + body.length + p.length + tail.length > size) break;
    body += p;
  }
  return head + body + tail;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** A Java-style package from a path: the folders after `java/` (or all of them). */
function packageOf(p: string): string {
  const dirs = p.split('/').slice(0, -1);
  const at = dirs.lastIndexOf('java');
  return (at >= 0 ? dirs.slice(at + 1) : dirs).join('.');
}

/** One stack frame in the style of the definition's language. */
export function frameOf(s: TaskTextSource): string {
  const code = (s.lines[0] ?? '').trim();
  switch (s.language) {
    case 'python':
      return `  File "/home/user/project/${s.path}", line ${s.startLine}, in ${s.symbol}\n    ${code}\n`;
    case 'java':
    case 'kotlin':
    case 'scala':
    case 'csharp':
      return `\tat ${packageOf(s.path)}.${s.context}(${basename(s.path)}:${s.startLine})\n`;
    case 'go':
      return `${packageOf(s.path)}.${s.context}(0xc000123456)\n\t/go/src/project/${s.path}:${s.startLine} +0x1d\n`;
    case 'rust':
      return `  ${s.context.replace(/\./g, '::')}\n             at ./${s.path}:${s.startLine}:5\n`;
    default:
      return `    at ${s.context} (/app/${s.path}:${s.startLine}:5)\n`;
  }
}

function trace(sources: readonly TaskTextSource[], size: number): string {
  const [a, b] = sources;
  const message = (a?.lines.find((l) => /\w{4,}/.test(l)) ?? 'unexpected state').trim();
  const head = `${a?.symbol ?? 'Call'} fails with an exception when called from ${b?.symbol ?? 'the client'}\n\n${PROSE[0]} ${PROSE[1]}\n\nStack trace:\n\`\`\`\nException in thread "main" java.lang.IllegalStateException: ${message}\n`;
  return fill(head, sources.map(frameOf), '```\n', size);
}

function diff(sources: readonly TaskTextSource[], size: number): string {
  const hunks = sources.map((s) => {
    const n = s.lines.length;
    const body = s.lines.map((l, i) => (i === 1 ? `-${l}\n+${l.replace(/\w+/, (w) => `${w}Checked`)}\n` : ` ${l}\n`)).join('');
    return `diff --git a/${s.path} b/${s.path}\n--- a/${s.path}\n+++ b/${s.path}\n@@ -${s.startLine},${n} +${s.startLine},${n} @@ ${s.context}\n${body}`;
  });
  return fill(`Check the value before ${sources[0]?.symbol ?? 'use'} reads it\n\n${PROSE[3]}\n\n`, hunks, '', size);
}

function feature(sources: readonly TaskTextSource[], size: number): string {
  const asks = sources.map((s, i) => `${PROSE[i % PROSE.length]} It would help if \`${s.context}\` accepted an option for this, the way other settings do.\n\n`);
  return fill(`Allow configuring ${sources[0]?.symbol ?? 'the behaviour'} per call\n\n`, asks, `\`\`\`\n${sources[1]?.symbol ?? 'call'}(options)\n\`\`\`\n`, size);
}

function log(sources: readonly TaskTextSource[], size: number): string {
  const levels = ['DEBUG', 'INFO', 'WARN', 'DEBUG', 'ERROR'];
  const lines = sources.map((s, i) => {
    const words = (s.lines[0] ?? '').replace(/[^\w ]+/g, ' ').replace(/\s+/g, ' ').trim();
    return `2026-03-0${1 + (i % 9)} 10:${String(10 + (i % 50)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String((i * 37) % 1000).padStart(3, '0')} ${levels[i % levels.length]} [worker-${i % 4}] ${s.context} - ${words}\n`;
  });
  return fill(`Intermittent failure in ${sources[0]?.symbol ?? 'the job'}, log attached\n\n${PROSE[1]}\n\n\`\`\`\n`, lines, '```\n', size);
}

function report(sources: readonly TaskTextSource[], size: number): string {
  const [a] = sources;
  const quoted = sources.flatMap((s) => s.lines).map((l) => /"([^"\\]{12,80})"/.exec(l)?.[1]).find((m) => m !== undefined) ?? 'operation failed';
  const head = `Wrong result from ${a?.symbol ?? 'the query'} with a nested parameter\n\n**Describe the bug**\n${PROSE[2]}\n\n**To reproduce**\n\`\`\`\n`;
  const code = sources.map((s) => `// ${s.path}:${s.startLine}\n${s.lines.join('\n')}\n`);
  return fill(head, code, `\`\`\`\n\n**Actual behaviour**\nAn error: "${quoted}"\n\n**Expected behaviour**\n${PROSE[4]}\n`, size);
}

/** The five texts, each about `size` characters, from `sources` (the tree's definitions). */
export function taskTexts(sources: readonly TaskTextSource[], size = TASK_TEXT_BYTES): TaskText[] {
  return [
    { kind: 'trace', text: trace(spread(sources, 1), size) },
    { kind: 'diff', text: diff(spread(sources, 2), size) },
    { kind: 'feature', text: feature(spread(sources, 3), size) },
    { kind: 'log', text: log(spread(sources, 4), size) },
    { kind: 'report', text: report(spread(sources, 5), size) },
  ];
}
