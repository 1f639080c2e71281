// Import specifiers of a file, for the dependency graph of context packs. tree-sitter finds
// the import statements (top level, and one level into namespaces/modules); a small pattern
// per language reads the specifier out of each statement's text. Specifiers are returned as
// written (`./util`, `os.path`, `crate::net`); src/core/pack/graph.ts resolves them to files.
import type { Node } from 'web-tree-sitter';
import { typeTableFor } from './units';

interface ImportRule {
  /** Node types that are import statements. */
  nodes: ReadonlySet<string>;
  /** Node types to look inside for more imports (namespaces, modules, `extern` blocks). */
  containers?: ReadonlySet<string>;
  /** Specifiers in one statement's text. */
  read(text: string): string[];
}

const set = (...t: string[]) => new Set(t);
const all = (re: RegExp, text: string, group = 1) => [...text.matchAll(re)].map((m) => m[group] as string).filter(Boolean);

/**
 * Each pattern runs only on a statement holding its keyword: JavaScript bundles are thousands of
 * top-level statements, few of them imports, and a substring search is far cheaper than a scan.
 */
const ifHas = (keyword: string, re: RegExp, text: string): string[] => (text.includes(keyword) ? all(re, text) : []);

const JS_LIKE: ImportRule = {
  nodes: set('import_statement', 'export_statement', 'lexical_declaration', 'variable_declaration', 'expression_statement'),
  containers: set('internal_module', 'module', 'ambient_declaration', 'statement_block'),
  read: (text) => [
    ...ifHas('from', /\bfrom\s*['"]([^'"\n]+)['"]/g, text),
    ...ifHas('import', /^\s*import\s*['"]([^'"\n]+)['"]/g, text),
    ...ifHas('require', /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, text),
    ...ifHas('import', /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g, text),
  ],
};

const RULES: Readonly<Record<string, ImportRule>> = {
  typescript: JS_LIKE,
  tsx: JS_LIKE,
  javascript: JS_LIKE,
  python: {
    nodes: set('import_statement', 'import_from_statement', 'future_import_statement'),
    read: (text) => {
      const from = /^\s*from\s+([.\w]+)\s+import\s+([\s\S]+)$/.exec(text);
      if (from) {
        const module = from[1] as string;
        // `from . import models` names modules of the package itself.
        if (/^\.+$/.test(module)) return (from[2] as string).replace(/[()\\\s]+/g, ' ').split(',').map((n) => `${module}${n.trim().split(/\s+/)[0]}`).filter((n) => n.length > module.length);
        return [module];
      }
      return text.replace(/^\s*import\s+/, '').split(',').map((p) => (p.trim().split(/\s+/)[0] ?? '').trim()).filter(Boolean);
    },
  },
  go: { nodes: set('import_declaration'), read: (text) => all(/"([^"\n]+)"/g, text) },
  rust: {
    nodes: set('use_declaration', 'mod_item', 'extern_crate_declaration'),
    containers: set('declaration_list'),
    read: (text) => {
      const mod = /^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/.exec(text);
      if (mod) return [`./${mod[1]}`];
      const use = /\buse\s+([\w:]+)/.exec(text);
      return use ? [(use[1] as string).replace(/::$/, '')] : [];
    },
  },
  java: { nodes: set('import_declaration'), read: (text) => all(/\bimport\s+(?:static\s+)?([\w.]+)/g, text).map((s) => s.replace(/\.$/, '')) },
  c: { nodes: set('preproc_include'), containers: set('preproc_ifdef', 'preproc_if', 'linkage_specification', 'declaration_list'), read: (text) => all(/#\s*include\s*"([^"\n]+)"/g, text) },
  cpp: { nodes: set('preproc_include'), containers: set('preproc_ifdef', 'preproc_if', 'linkage_specification', 'declaration_list', 'namespace_definition'), read: (text) => all(/#\s*include\s*"([^"\n]+)"/g, text) },
  csharp: { nodes: set('using_directive'), containers: set('namespace_declaration', 'file_scoped_namespace_declaration', 'declaration_list'), read: (text) => all(/\busing\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;/g, text) },
  ruby: {
    nodes: set('call'),
    read: (text) => [
      ...all(/^\s*require_relative\s*\(?\s*['"]([^'"\n]+)['"]/g, text).map((s) => (s.startsWith('.') ? s : `./${s}`)),
      ...all(/^\s*require\s*\(?\s*['"]([^'"\n]+)['"]/g, text),
    ],
  },
  php: {
    nodes: set('namespace_use_declaration', 'expression_statement', 'include_expression', 'require_once_expression', 'include_once_expression', 'require_expression'),
    containers: set('namespace_definition', 'compound_statement'),
    read: (text) => [
      ...all(/\b(?:require|include)(?:_once)?\s*\(?\s*['"]([^'"\n]+)['"]/g, text),
      ...all(/^\s*use\s+([\w\\]+)/g, text).map((s) => s.replace(/\\/g, '/')),
    ],
  },
  css: { nodes: set('import_statement'), read: (text) => all(/@import\s+(?:url\()?\s*['"]?([^'")\s;]+)/g, text).map((s) => (/^(\.|\/|https?:)/.test(s) ? s : `./${s}`)) },
  bash: { nodes: set('command'), read: (text) => all(/^\s*(?:source|\.)\s+['"]?([^\s'";]+)/g, text).map((s) => (s.startsWith('.') || s.startsWith('/') ? s : `./${s}`)) },
};

const MAX_IMPORTS = 200;

/** The import specifiers of a parsed file, in order, deduplicated. */
export function extractImports(root: Node, language: string, source: string): string[] {
  const rule = RULES[language];
  if (!rule) return [];
  const out = new Set<string>();
  const types = typeTableFor(root.tree.language);
  const visit = (parent: Node, depth: number) => {
    // `children`, not `namedChildren`: the extractor has already listed the root's children
    // (and those of the nodes it flattened, such as `#ifdef` blocks), and a node keeps that
    // list; named ones are picked by type here.
    for (const child of parent.children) {
      if (!child) continue;
      if (out.size >= MAX_IMPORTS) return;
      const typeId = child.typeId;
      if (!types.isNamed(typeId)) continue;
      const type = types.name(typeId);
      if (rule.nodes.has(type)) {
        const text = source.slice(child.startIndex, child.endIndex);
        // Cheap pre-check: most top-level statements are not imports.
        if (text.length < 2000 || type === 'import_declaration' || type === 'use_declaration') {
          for (const spec of rule.read(text)) if (spec && spec.length < 300) out.add(spec);
        }
      } else if (depth < 2 && rule.containers?.has(type)) {
        visit(child, depth + 1);
      } else if (depth < 2 && (type === 'namespace_definition' || type === 'namespace_declaration' || type === 'module')) {
        const body = child.childForFieldName('body');
        if (body) visit(body, depth + 1);
      }
    }
  };
  visit(root, 0);
  return [...out];
}
