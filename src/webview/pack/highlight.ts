// Syntax colouring for the pack's code blocks, with Prism's tokenizer (bundled, offline; no
// eval, no inline styles, so the webview's CSP holds). Prism only splits the text into typed
// tokens here: the DOM is built with textContent like everything else, and the colours come
// from VS Code's theme variables in pack.css (webviews get the theme's colours as variables but
// not its TextMate token rules, so the editor's own colouring cannot be reused).
import './prismManual';
import * as Prism from 'prismjs/components/prism-core';
import 'prismjs/components/prism-clike';
import 'prismjs/components/prism-markup';
import 'prismjs/components/prism-css';
import 'prismjs/components/prism-javascript';
import 'prismjs/components/prism-typescript';
import 'prismjs/components/prism-jsx';
import 'prismjs/components/prism-tsx';
import 'prismjs/components/prism-python';
import 'prismjs/components/prism-go';
import 'prismjs/components/prism-rust';
import 'prismjs/components/prism-java';
import 'prismjs/components/prism-kotlin';
import 'prismjs/components/prism-scala';
import 'prismjs/components/prism-c';
import 'prismjs/components/prism-cpp';
import 'prismjs/components/prism-csharp';
import 'prismjs/components/prism-ruby';
import 'prismjs/components/prism-markup-templating';
import 'prismjs/components/prism-php';
import 'prismjs/components/prism-swift';
import 'prismjs/components/prism-bash';
import 'prismjs/components/prism-scss';
import 'prismjs/components/prism-sql';
import 'prismjs/components/prism-lua';
import 'prismjs/components/prism-json';
import 'prismjs/components/prism-yaml';
import 'prismjs/components/prism-toml';
import 'prismjs/components/prism-ini';
import 'prismjs/components/prism-markdown';
import 'prismjs/components/prism-docker';
import 'prismjs/components/prism-makefile';
import { h } from './dom';

/** Cairn's language ids (src/core/languages.ts) whose Prism grammar has another name. */
const GRAMMAR_OF: Record<string, string> = { html: 'markup', xml: 'markup', vue: 'markup', svelte: 'markup', dockerfile: 'docker', text: '' };

/** The Prism grammar for a Cairn language id, when one is bundled. */
export function grammarFor(language: string): Prism.Grammar | undefined {
  const name = GRAMMAR_OF[language] ?? language;
  return name ? Prism.languages[name] : undefined;
}

/** A run of text and the type (with its aliases) of the innermost token it is in. */
export interface Piece {
  text: string;
  types: string[];
}

function flatten(stream: Prism.TokenStream, types: string[], out: Piece[]): void {
  if (typeof stream === 'string') {
    if (stream) out.push({ text: stream, types });
    return;
  }
  if (Array.isArray(stream)) {
    for (const s of stream) flatten(s, types, out);
    return;
  }
  // The innermost token decides the colour: an interpolation inside a string is code again.
  const alias = stream.alias === undefined ? [] : Array.isArray(stream.alias) ? stream.alias : [stream.alias];
  flatten(stream.content, [stream.type, ...alias], out);
}

/** The text as lines of typed pieces; plain pieces when the language has no grammar. */
export function tokenLines(text: string, language: string): Piece[][] {
  const grammar = grammarFor(language);
  const pieces: Piece[] = [];
  if (grammar) flatten(Prism.tokenize(text, grammar), [], pieces);
  else pieces.push({ text, types: [] });
  const lines: Piece[][] = [[]];
  for (const piece of pieces) {
    const parts = piece.text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) (lines[lines.length - 1] as Piece[]).push({ text: part, types: piece.types });
    });
  }
  return lines;
}

/**
 * A code block: one element per line, numbered from `firstLine` (the file's own line numbers,
 * shown in a gutter that copying leaves out), each token a span with `tok-<type>` classes.
 * `more` is a last, unnumbered line (what was cut to fit the budget).
 */
export function codeBlock(text: string, language: string, firstLine: number, more?: string): HTMLElement {
  const lines = tokenLines(text, language).map((pieces, i) =>
    h(
      'span',
      { class: 'line', 'data-line': firstLine + i },
      ...pieces.map((p) => (p.types.length ? h('span', { class: p.types.map((t) => `tok-${t}`).join(' ') }, p.text) : p.text)),
      // Copying the block keeps its line breaks.
      '\n',
    ),
  );
  if (more) lines.push(h('span', { class: 'line more' }, more));
  const pre = h('pre', { class: 'code-block' }, h('code', { class: `lang-${language}` }, ...lines));
  // The gutter fits the largest line number (CSSOM, not a style attribute: the CSP allows no inline styles).
  pre.style.setProperty('--gutter', `${String(firstLine + lines.length).length + 1}ch`);
  return pre;
}
