// Text people read in labels and tooltips: no Markdown or HTML marks (a heading's
// `<a name="x"></a>` anchor or `**bold**` is the author's markup, not its name) and no internal
// notation (the scorer's `directives*→directives` term labels), as plain words instead. Plain
// functions without `vscode`, tested in plain Node.
import type { ScoreComponent } from '../core/api';

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** Marks outside code spans: HTML tags and comments, links and images (their text stays), emphasis, entities. */
function unmarkProse(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}*_])([*_])(?=\S)(.+?)(?<=\S)\2(?![\p{L}\p{N}*_])/gu, '$1$3')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/**
 * Inline Markdown and HTML as a reader sees it rendered: `## <a name="x"></a>**Codemod:** \`run\``
 * reads `## Codemod: run`. A code span's text stays as written (`__init__` keeps its underscores).
 */
export function plainMarkup(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/(`+)(.+?)\1/g)) {
    out += unmarkProse(text.slice(last, m.index)) + (m[2] as string).trim();
    last = m.index + m[0].length;
  }
  out += unmarkProse(text.slice(last));
  return out.replace(/[ \t]{2,}/g, ' ').trim();
}

const FIELD_WORDS: Readonly<Record<string, string>> = {
  symbol: 'its name',
  context: 'the names around it',
  path: 'its file path',
  signature: 'its signature',
  body: 'its code',
  prose: 'its text',
};

const BOOST_WORDS: Readonly<Record<string, string>> = {
  'exact-definition': 'defines a name you searched for',
  'exact-definition:joined-words': 'defines the name your words spell',
  definition: 'a definition',
  'test-file': 'in a test file',
  'vendored-or-generated': 'vendored or generated code',
  'code-first:prose': 'documentation, while code comes first',
  'code-first:config': 'configuration, while code comes first',
  'code-like-query:prose': 'documentation, for a query that reads like code',
  'file-name': 'the file name matches',
};

const quoted = (s: string) => `“${s}”`;

/**
 * A scored term in words. The scorer labels a term by how the query reached it: `word`,
 * `prefix*→word` (a prefix or wildcard), `typed~word` (a near miss), `two words→twowords` (words
 * joined into one identifier, `→stem` after it in prose).
 */
export function termWords(label: string): string {
  const joined = /^(.+ .+)→([^→]+)(?:→([^→]+))?$/.exec(label);
  if (joined) return `${quoted((joined[3] ?? joined[2]) as string)} (your words ${quoted(joined[1] as string)} as one name)`;
  const expanded = /^(.+)→([^→]+)$/.exec(label);
  if (expanded) {
    const [raw, word] = [expanded[1] as string, expanded[2] as string];
    const prefix = /^([^*?]+)\*$/.exec(raw)?.[1];
    if (prefix === word) return quoted(word);
    return prefix ? `${quoted(word)} (starts with ${quoted(prefix)})` : `${quoted(word)} (matches ${quoted(raw)})`;
  }
  const near = /^(.+)~(.+)$/.exec(label);
  if (near) return `${quoted(near[2] as string)} (close to ${quoted(near[1] as string)})`;
  return quoted(label);
}

/** A part of a hit's score in plain words, for its tooltip. */
export function scoreWords(c: ScoreComponent): string {
  switch (c.kind) {
    case 'field':
      return `${termWords(c.term)} in ${FIELD_WORDS[c.field] ?? c.field}`;
    case 'boost': {
      const words = BOOST_WORDS[c.name] ?? c.name.replace(/[-:]/g, ' ');
      return `${words[0]?.toUpperCase() ?? ''}${words.slice(1)} (× ${c.factor})`;
    }
    case 'match': {
      const fused = /^rrf: (.+) rank (\d+)(?: \(× ([\d.]+)\))?$/.exec(c.name);
      if (fused) return `Ranked ${fused[2]} by ${fused[1]}${fused[3] ? ` (weighed × ${fused[3]})` : ''}`;
      const name = c.name.replace(/^ripgrep: /, 'exact text: ');
      return `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`;
    }
  }
}
