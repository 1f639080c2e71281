// HTML: top-level elements, the sections of <html>/<head>/<body>/<main>, <script> and <style>
// blocks. An element's symbol is its tag, or `tag#id` when it has an id.
import type { Node } from 'web-tree-sitter';
import { setOf, unquote, type DefInfo, type LanguageSpec, type SpecContext } from '../spec';

/** Elements whose children are chunked separately. */
const CONTAINER_TAGS = setOf('html', 'head', 'body', 'main', 'template');
const ELEMENTS = setOf('element', 'script_element', 'style_element');

function startTag(node: Node): Node | undefined {
  const first = node.firstNamedChild;
  return first && (first.type === 'start_tag' || first.type === 'self_closing_tag') ? first : undefined;
}

function idOf(tag: Node): string | undefined {
  for (const attr of tag.namedChildren) {
    if (attr?.type !== 'attribute' || attr.firstNamedChild?.text.toLowerCase() !== 'id') continue;
    const value = attr.namedChildren[1];
    return value ? unquote(value.text) : undefined;
  }
  return undefined;
}

function definition(node: Node, type: string, ctx: SpecContext): DefInfo | undefined {
  if (!ELEMENTS.has(type)) return undefined;
  const tag = startTag(node);
  const tagName = tag?.firstNamedChild?.text.toLowerCase() ?? type.replace('_element', '');
  const id = tag ? idOf(tag) : undefined;
  const name = id ? `${tagName}#${id}` : tagName;
  const body = tag?.nextSibling ?? null;
  if (type !== 'element') return { kind: 'element', name, node, body };
  const parentTag = ctx.container?.name.split('#')[0] ?? '';
  // Inside <body>/<main>, small anonymous elements stay in the summary.
  const wanted = ctx.depth === 0 || id !== undefined || (CONTAINER_TAGS.has(parentTag) && parentTag !== 'head' && node.startPosition.row !== node.endPosition.row);
  if (!wanted) return undefined;
  const info: DefInfo = { kind: 'element', name, node, body };
  if (CONTAINER_TAGS.has(tagName) && tag) {
    info.members = node;
    info.headerEnd = tag.endIndex;
  }
  return info;
}

export const htmlSpec: LanguageSpec = {
  comments: setOf('comment'),
  definition,
};
