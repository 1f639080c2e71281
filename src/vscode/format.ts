// Presentation helpers shared by the views, pickers and status bar: numbers, sizes, times and
// languages as people read them, and what a hit is called. Plain functions without `vscode`, so
// they are tested in plain Node; the UI locale is set once at activation (`useLocale`).

import { breadcrumbSeparator, displayBreadcrumb, type RefreshProgress, type SearchHit, type Span } from '../core/api';
import { bucketOf } from '../core/clientApi';
import { shownLine } from './hitLine';
import { plainMarkup } from './plainText';

let displayLocale = 'en';
const formatters = new Map<string, Intl.NumberFormat>();

/** The locale numbers are written in (VS Code's `env.language`); cheap: nothing is built until a number needs it. */
export function useLocale(locale: string | undefined): void {
  displayLocale = locale || 'en';
}

/**
 * `Intl.NumberFormat` for the locale (digits always Latin, as the rest of VS Code's UI). Built on
 * first use: the first Intl formatter of a process is slow to create, which activation must not pay,
 * so English and small integers never build one.
 */
function intl(locale: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${locale}/${fractionDigits}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.NumberFormatOptions = { maximumFractionDigits: fractionDigits, numberingSystem: 'latn' } as Intl.NumberFormatOptions;
    try {
      f = new Intl.NumberFormat(locale, options);
    } catch {
      f = new Intl.NumberFormat('en', options); // a locale tag Intl does not know
    }
    formatters.set(key, f);
  }
  return f;
}

const isEnglish = (locale: string) => locale === 'en' || locale.startsWith('en-');

/** 2150 → "2,150" in English, "2.150" in German; with `fractionDigits`, at most that many decimals (1.1, 1). */
export function formatNumber(n: number, fractionDigits = 0, locale = displayLocale): string {
  const rounded = Number(n.toFixed(fractionDigits));
  if (Number.isInteger(rounded) && Math.abs(rounded) < 1000) return String(rounded);
  if (!isEnglish(locale)) return intl(locale, fractionDigits).format(rounded);
  const [whole = '', fraction] = String(rounded).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** "2,150 files", "1 file". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatNumber(n)} ${n === 1 ? noun : plural}`;
}

/** 1153434 → "1.1 MB", 1048576 → "1 MB", 900 → "900 B" (binary units, as file managers show them). */
export function bytes(n: number): string {
  if (n < 1024) return `${formatNumber(n)} B`;
  if (n < 1024 * 1024) return `${formatNumber(n / 1024, 1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${formatNumber(n / 1024 / 1024, 1)} MB`;
  return `${formatNumber(n / 1024 / 1024 / 1024, 1)} GB`;
}

/**
 * A skipped file's detail as people read it: the engine's "1153434 bytes (limit 1048576)" becomes
 * "1.1 MB (limit 1 MB)" (exact byte counts when both round to the same size); other details as they are.
 */
export function skipDetail(detail: string | undefined): string | undefined {
  if (!detail) return detail;
  const over = /^(\d+) bytes \(limit (\d+)\)$/.exec(detail);
  if (over) {
    const [size, limit] = [Number(over[1]), Number(over[2])];
    const [a, b] = [bytes(size), bytes(limit)];
    return a === b ? `${count(size, 'byte')} (limit ${count(limit, 'byte')})` : `${a} (limit ${b})`;
  }
  const grew = /^grew past the limit of (\d+) bytes while being read$/.exec(detail);
  if (grew) return `grew past the limit of ${bytes(Number(grew[1]))} while being read`;
  return detail;
}

/** A refresh in words: "2,150 added, 0 changed, 0 removed". */
export function refreshWords(r: { added: number; changed: number; removed: number }): string {
  return `${formatNumber(r.added)} added, ${formatNumber(r.changed)} changed, ${formatNumber(r.removed)} removed`;
}

export { languageName } from '../core/clientApi';

/** `path:start-end`, the reference users paste into chats and agents. */
export function spanReference(hit: Span): string {
  return `${hit.path}:${hit.startLine}-${hit.endLine}`;
}

/** "just now", "2 min ago", "3 h ago", "5 days ago". */
export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${formatNumber(days)} day${days === 1 ? '' : 's'} ago`;
}

let clock: { locale: string; format: Intl.DateTimeFormat } | undefined;

/** The time of day of an ISO time, in the UI locale ("2:05 PM", "14:05"); built on first use, like the number formats. */
export function clockTime(iso: string, locale = displayLocale): string {
  if (clock?.locale !== locale) {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' });
    } catch {
      format = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' });
    }
    clock = { locale, format };
  }
  return clock.format.format(new Date(iso));
}

/** Percent done of a refresh: the engine's own, weighted by the work of each stage (progressMeter.ts). */
export function progressPercent(p: RefreshProgress | undefined): number | undefined {
  if (!p) return undefined;
  if (p.percent !== undefined) return p.percent;
  // A waiting refresh, or an engine from before the weighting: the files done, as before.
  if ((p.phase === 'read' || p.phase === 'chunk') && p.total > 0) return Math.min(99, Math.floor((p.done / p.total) * 100));
  if (p.phase === 'write' || p.phase === 'merge') return 99;
  return 0;
}

export function progressText(p: RefreshProgress | undefined): string {
  if (!p) return 'starting';
  switch (p.phase) {
    case 'wait':
      return p.message ?? 'waiting for another writer';
    case 'discover':
      return 'listing files';
    case 'read':
      return `reading ${formatNumber(p.done)} of ${count(p.total, 'file')}`;
    case 'chunk':
      return `indexing ${formatNumber(p.done)} of ${count(p.total, 'file')}`;
    case 'write':
      return 'writing the index';
    case 'merge':
      return 'merging segments';
  }
}

const KIND_ICONS: Record<string, string> = {
  function: 'symbol-function',
  method: 'symbol-method',
  constructor: 'symbol-constructor',
  class: 'symbol-class',
  interface: 'symbol-interface',
  type: 'symbol-type-parameter',
  enum: 'symbol-enum',
  struct: 'symbol-structure',
  union: 'symbol-structure',
  trait: 'symbol-interface',
  impl: 'symbol-class',
  module: 'symbol-module',
  namespace: 'symbol-namespace',
  constant: 'symbol-constant',
  variable: 'symbol-variable',
  property: 'symbol-property',
  macro: 'symbol-operator',
  rule: 'symbol-ruler',
  element: 'symbol-misc',
  key: 'symbol-key',
  section: 'symbol-text',
  code: 'code',
  text: 'symbol-text',
};

export function kindIcon(kind: string): string {
  return KIND_ICONS[kind] ?? 'symbol-misc';
}

/** Longest label a hit gets: past it, a row's path (quick pick) or matched line (Results) is pushed out of view. */
export const MAX_TITLE_CHARS = 48;
const ELLIPSIS = '…';

/**
 * A breadcrumb that fits in `max` characters: its last part (the hit's own name) whole when it
 * fits, then as many of the nearest parents as fit, the rest elided
 * (`Guide > FAQ > Why is the greeting empty?` → `… > FAQ > Why is the greeting empty?`).
 */
export function shortenBreadcrumb(text: string, separator: string, max = MAX_TITLE_CHARS): string {
  if (text.length <= max) return text;
  const parts = text.split(separator);
  let out = parts.pop() as string;
  if (out.length > max - 2) return `${out.slice(0, max - 1).trimEnd()}${ELLIPSIS}`;
  while (parts.length) {
    const next = `${parts[parts.length - 1]}${separator}${out}`;
    if (`${ELLIPSIS}${separator}${next}`.length > max) break;
    out = next;
    parts.pop();
  }
  return parts.length ? `${ELLIPSIS}${separator}${out}` : out;
}

const PROSE_SEPARATOR = ' > ';

type Named = Pick<SearchHit, 'symbol' | 'context'> & { language?: string };

/**
 * A hit's whole name: its breadcrumb when that ends with its symbol, else its symbol, else the
 * enclosing breadcrumb; '' for none. Written as its language writes a path (`Runtime::block_on` in Rust).
 */
export function hitName(hit: Named): string {
  return displayName(hit.symbol && hit.context && hit.context.endsWith(hit.symbol) ? hit.context : hit.symbol || hit.context, hit.language);
}

/**
 * An indexed name or breadcrumb as people read it: a document's headings (its author's Markdown,
 * anchors and bold included) as they read rendered, code paths as their language writes them.
 */
export function displayName(name: string, language: string | undefined): string {
  if (language && bucketOf(language) === 'prose') return plainMarkup(name);
  return displayBreadcrumb(name, language);
}

/**
 * What a hit is called, short enough to leave room for its path: a definition by its qualified
 * name (`Greeter.greet`), a section by its heading path, and a chunk with no name of its own by
 * the definition or section that encloses it (its breadcrumb); only a chunk with neither by its lines.
 */
export function hitTitle(hit: Named & Pick<SearchHit, 'startLine' | 'endLine'>): string {
  const name = hitName(hit);
  if (name) return shortenBreadcrumb(name, name.includes(PROSE_SEPARATOR) ? PROSE_SEPARATOR : breadcrumbSeparator(hit.language));
  return hit.startLine === hit.endLine ? `line ${hit.startLine}` : `lines ${hit.startLine}–${hit.endLine}`;
}

const HEADING_LANGUAGES: Record<string, RegExp> = {
  markdown: /^\s{0,3}#{1,6}(?:\s+|$)/,
  asciidoc: /^={1,6}\s+/,
};

/**
 * A line of a prose file as a reader sees it rendered: a heading without its `#` or `=` marks,
 * HTML anchors, links, emphasis and code spans without their markup. Other lines (and code) as they are.
 */
export function plainLine(text: string, language: string): string {
  const heading = HEADING_LANGUAGES[language];
  if (!heading || !heading.test(text)) return text;
  return plainMarkup(text.replace(heading, '').replace(/\s+#+\s*$/, ''));
}

/** The first non-empty preview line (the chunk's best match), without the «match» markers; headings as plain text. */
export function previewLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'> & { language?: string }): string {
  return plainLine(shownLine(hit).text, hit.language ?? '');
}

/** `LINE: text` of the line a hit's preview shows, as VS Code's Search view lists a match; '' without a preview. */
export function matchedLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'> & { language?: string }): string {
  const shown = shownLine(hit);
  return shown.text ? `${shown.line}: ${plainLine(shown.text, hit.language ?? '')}` : '';
}

/** The line a hit opens at and names: its preview's line, else its first line. */
export function hitLine(hit: Pick<SearchHit, 'preview' | 'previewLine' | 'startLine'>): number {
  return hit.preview ? shownLine(hit).line : hit.startLine;
}

/**
 * Where the words a hit matched (the preview's «marked» words) occur in its label, as
 * TreeItemLabel highlights: the Results view shows what matched as VS Code's Search view does.
 */
export function labelHighlights(label: string, preview: string): Array<[number, number]> {
  const words = new Set([...preview.matchAll(/«([^»]+)»/g)].map((m) => (m[1] as string).toLowerCase()).filter((w) => w.length > 1));
  const lower = label.toLowerCase();
  const marked = new Uint8Array(label.length);
  for (const w of words) for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + w.length)) marked.fill(1, at, at + w.length);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < marked.length; i++) {
    if (!marked[i]) continue;
    const start = i;
    while (i < marked.length && marked[i]) i++;
    out.push([start, i]);
  }
  return out;
}
