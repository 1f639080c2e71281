// Judging a reference: each occurrence of the name is `certain` when it resolves to one of the
// definitions — its own definition, in a defining file, through an import (refImports.ts), or
// through a receiver of known type — and a `name-match` otherwise, with the reason either way.
// JavaScript and TypeScript resolve through what each file binds the name to; other languages
// by file, package and receiver.
import { groupBy } from '../groupBy';
import type { Segment } from '../index/segment';
import { annotatedType } from './annotations';
import { receiverOf, shadowed, type JsBindings } from './jsBindings';
import { ImportResolver, ownerOf } from './refImports';
import { MEMBER_KINDS, NAMED_IMPORTS, type ContextOf, type Occurrence, type ReferenceSources } from './refOccurrences';
import type { ReferenceCertainty, ReferenceDefinition } from './types';

/**
 * Member names so common that `x.get(…)` says nothing about which `get` it is, even in a file
 * that imports the one definition of `get` the index has.
 */
const COMMON_MEMBERS: ReadonlySet<string> = new Set([
  'get', 'set', 'has', 'add', 'delete', 'remove', 'clear', 'push', 'pop', 'shift', 'unshift', 'keys', 'values', 'entries', 'items',
  'map', 'filter', 'forEach', 'reduce', 'find', 'some', 'every', 'includes', 'indexOf', 'slice', 'splice', 'concat', 'join', 'split',
  'length', 'size', 'len', 'count', 'name', 'id', 'type', 'value', 'key', 'data', 'text', 'message', 'error', 'code', 'path', 'url',
  'then', 'catch', 'finally', 'call', 'apply', 'bind', 'toString', 'valueOf', 'equals', 'hashCode', 'compareTo', 'clone', 'copy',
  'init', 'run', 'start', 'stop', 'close', 'open', 'read', 'write', 'send', 'emit', 'on', 'off', 'once', 'next', 'update', 'create',
  'build', 'parse', 'format', 'append', 'insert', 'sort', 'reverse', 'log', 'info', 'debug', 'warn', 'trace', 'iterator', 'hasNext',
  'String', 'Error', 'New', 'Close', 'Read', 'Write', 'Get', 'Set', 'Add', 'Len', 'Run', 'Start', 'Stop', 'Next', 'Reset', 'reset',
  'lock', 'unlock', 'Lock', 'Unlock', 'flush', 'Flush', 'handle', 'process', 'render', 'test', 'exec', 'match', 'replace', 'trim',
  'as_str', 'as_ref', 'unwrap', 'to_string', 'iter', 'into', 'from', 'default', 'fmt', 'is_empty', 'contains',
]);

/** Languages where a method's plain name inside its class calls it (no `this.` or `self.` needed). */
const IMPLICIT_RECEIVER: ReadonlySet<string> = new Set(['java', 'csharp', 'cpp', 'c', 'ruby', 'swift', 'kotlin', 'scala']);
/** Receivers that are the enclosing class's (impl's) own instance or type. */
const SELF_RECEIVERS: ReadonlySet<string> = new Set(['this', 'self', 'Self', '$this', 'cls', 'super']);

/** How one occurrence is judged: certain ones name the definition they resolve to. */
interface Verdict {
  certainty: ReferenceCertainty;
  reason: string;
  to?: ReferenceDefinition;
  /** A name match's possible definitions, when known (`[]`: none of the index's). */
  could?: readonly ReferenceDefinition[];
}

/** Decides which occurrences resolve to the definitions. */
export class Resolver {
  private readonly imports: ImportResolver;
  /** Each definition by `path:line:column` of its name. */
  private readonly defAt = new Map<string, ReferenceDefinition>();
  /** Each chunk's lines (`seg:doc`), read once per lookup for the annotations in it. */
  private readonly chunkCache = new Map<string, readonly string[]>();
  /** Every definition is a method or property: it travels with its class. */
  private readonly memberDefinitions: boolean;
  /**
   * Every definition is a binding of an imported module (`var etag = require('etag')`): another
   * file reaches the module's export of the name, never this binding (`utils.etag` is whatever
   * `exports.etag` was set to).
   */
  private readonly bindingDefinitions: boolean;
  /** `path:line` of each definition that binds an import: other import names on its line are the imported module's. */
  private readonly bindingLines = new Set<string>();
  /**
   * Member definitions by their owner's name (`Store` of `Store.save`), in definition order;
   * made on first use: a common name (`next`) has thousands of definitions and thousands of uses.
   */
  private membersByOwner?: Map<string, ReferenceDefinition[]>;

  constructor(
    private readonly src: ReferenceSources,
    private readonly name: string,
    private readonly definitions: readonly ReferenceDefinition[],
    private readonly qualified: boolean,
    occurrences: readonly Occurrence[],
    private readonly contexts: ContextOf,
    /** Named function expressions: their name is bound inside them only. */
    private readonly selfScoped: ReadonlySet<ReferenceDefinition> = new Set(),
  ) {
    this.imports = new ImportResolver(src, name, definitions, occurrences, selfScoped);
    this.memberDefinitions = definitions.length > 0 && definitions.every((d) => MEMBER_KINDS.has(d.kind));
    const bindings = this.imports.bindings;
    this.bindingDefinitions = definitions.length > 0 && bindings.length === definitions.length;
    for (const d of bindings) this.bindingLines.add(`${d.path}:${d.line}`);
    for (const d of definitions) this.defAt.set(`${d.path}:${d.line}:${d.column}`, d);
  }

  judge(o: Occurrence): void {
    const v = NAMED_IMPORTS.has(o.file.language) && o.spelling === this.name && this.definitions.length > 0 ? this.scriptVerdict(o) : this.verdict(o);
    // Certain means resolved to one definition: without one it is a name match.
    if (v.certainty === 'certain' && !v.to) {
      o.certainty = 'name-match';
      o.reason = `${v.reason}, which defines it more than once`;
      return;
    }
    o.certainty = v.certainty;
    o.reason = v.reason;
    if (v.to) o.to = v.to;
    if (v.could) o.could = v.could;
  }

  /** The member definitions `owner` owns. */
  private membersOf(owner: string): readonly ReferenceDefinition[] {
    this.membersByOwner ??= groupBy(this.definitions, (d) => (MEMBER_KINDS.has(d.kind) ? ownerOf(d) : undefined));
    return this.membersByOwner.get(owner) ?? [];
  }

  /** The definition at an occurrence's place, if it is one. */
  private definitionAt(o: Occurrence): ReferenceDefinition | undefined {
    return this.defAt.get(`${o.file.path}:${o.line}:${o.column}`);
  }

  /** Member definitions of `path` whose owner the occurrence's enclosing definitions name (`this.m()` inside `class Store`). */
  private enclosingMember(o: Occurrence, defs: readonly ReferenceDefinition[]): ReferenceDefinition | undefined {
    const parts = this.contexts.at(o.seg, o.doc, o.line).context.split(/::|\.|#|›/).map((p) => p.trim());
    const matching = defs.filter((d) => MEMBER_KINDS.has(d.kind) && parts.includes(ownerOf(d) ?? '\u0000'));
    return matching.length === 1 ? matching[0] : undefined;
  }

  /** The text of an occurrence's line, as the working tree has it. */
  private lineText(o: Occurrence): string {
    const file = (this.src.snapshot.segments[o.file.seg] as Segment).file(o.file.index);
    return this.src.reader.lineOf(file, o.line, o.column + this.name.length + 1).text ?? '';
  }

  /** The type an annotation in the occurrence's chunk gives its receiver (`h: Handle`), if any. */
  private annotatedOwner(o: Occurrence, receiver: string): string | undefined {
    const seg = this.src.snapshot.segments[o.seg] as Segment;
    const start = seg.docStart.at(o.doc);
    const key = `${o.seg}:${o.doc}`;
    let lines = this.chunkCache.get(key);
    if (!lines) this.chunkCache.set(key, (lines = this.src.reader.text(o.file.path, start, seg.docEnd.at(o.doc))?.split('\n') ?? []));
    return annotatedType(lines.slice(0, o.line - start + 1), receiver, o.file.language);
  }

  /** Whether a use in its definition's file is of a local of the same name declared before it in its chunk. */
  private isShadowed(o: Occurrence, own: readonly ReferenceDefinition[]): boolean {
    const seg = this.src.snapshot.segments[o.seg] as Segment;
    const start = seg.docStart.at(o.doc);
    const lines = this.src.reader.text(o.file.path, start, o.line)?.split('\n');
    if (!lines) return false;
    // The use's own line up to the name only: `var range = …` declares at the use.
    const last = lines.length - 1;
    lines[last] = (lines[last] ?? '').slice(0, o.column - 1 + this.name.length + 3);
    const defLine = own.find((d) => d.line >= start && d.line <= o.line)?.line;
    return shadowed(lines, this.name, defLine === undefined ? -1 : defLine - start);
  }

  /** `{ name: value }`: a key of an object literal names a property, not the definition (a ternary's `? name :` aside). */
  private isPropertyKey(o: Occurrence): boolean {
    const text = this.lineText(o);
    const after = text.slice(o.column - 1 + this.name.length);
    return /^\s*:(?!:)/.test(after) && !/\?\s*$/.test(text.slice(0, o.column - 1)) && /[{,]\s*$|^\s*$/.test(text.slice(0, o.column - 1));
  }

  private resolved(spec: string, r: { def?: ReferenceDefinition; known: boolean; via: string }, how: string): Verdict {
    if (r.def) return { certainty: 'certain', reason: r.def.path === r.via ? `${how} ${r.via}` : `${how} ${r.via}, which gets it from ${r.def.path}`, to: r.def };
    return r.known ? { certainty: 'name-match', reason: `${how} ${spec}, where the index does not define it`, could: [] } : { certainty: 'name-match', reason: `${how} ${r.via}, which the index cannot follow` };
  }

  /**
   * JavaScript and TypeScript: a name resolves through what its file binds it to — its own
   * definition, an import or `require` of another module's export (destructured, a member of
   * the require, an alias of a module's member), a member of a module binding — and a method
   * through a receiver of known type (`this` in its class, `new Store()`).
   */
  private scriptVerdict(o: Occurrence): Verdict {
    const path = o.file.path;
    const b = this.imports.bindingsOf(path);
    const at = this.definitionAt(o);
    if (o.role === 'definition' && at && !this.imports.isBinding(at)) return { certainty: 'certain', reason: 'definition', to: at };
    // A binding's own line: `const { x } = require('./a')`, `import { x as y }`, `const x = utils.x`.
    const onLine = [...b.names].filter(([local, x]) => x.line <= o.line && o.line <= x.endLine && (local === this.name || x.imported === this.name));
    if (onLine.length > 0) {
      const entry = onLine.find(([, x]) => x.imported === this.name);
      if (!entry) return { certainty: 'name-match', reason: 'binds another export to the name', could: [] };
      const [local, x] = entry;
      const r = this.imports.resolveSpec(path, x.spec);
      if (r.def) return this.resolved(x.spec, r, 'imports it from');
      // Nothing in the index behind it (a package): the binding is the definition its file uses.
      if (at) return { certainty: 'certain', reason: 'definition', to: at };
      if (local === this.name && o.role !== 'import' && o.role !== 'member') {
        const own = this.imports.pick(this.imports.ownDefinitions(path), o.line);
        if (own) return { certainty: 'certain', reason: 'same file', to: own };
      }
      return { ...this.resolved(x.spec, r, 'imports it from'), ...(o.role === 'import' || o.role === 'member' ? { reason: "the imported module's own name" } : {}) };
    }
    const own = this.imports.ownDefinitions(path);
    if (o.role === 'member') return this.memberVerdict(o, b, own);
    if (o.role === 'code' && this.isPropertyKey(o)) return { certainty: 'name-match', reason: 'a property key', could: [] };
    // `const x = require('./a')` where a.js's `module.exports = x`: a.js's x.
    const whole = b.wholes.get(this.name);
    const exported = whole === undefined ? undefined : this.imports.wholeExport(path, whole);
    if (exported) return { certainty: 'certain', reason: `requires ${exported.path}, which exports it as the module`, to: exported };
    if (own.length > 0) {
      const inScope = own.filter((d) => !this.selfScoped.has(d) || (o.line >= d.startLine && o.line <= d.endLine));
      // A function expression's name outside it is another binding (`var host = this.host`).
      if (inScope.length === 0) return { certainty: 'name-match', reason: 'outside the function expression it names' };
      if (inScope.every((d) => MEMBER_KINDS.has(d.kind))) return { certainty: 'name-match', reason: 'not a member access' };
      const to = this.imports.pick(inScope.filter((d) => !MEMBER_KINDS.has(d.kind)), o.line);
      if (to && this.isShadowed(o, own)) return { certainty: 'name-match', reason: 'a local of the same name', could: [] };
      return to ? { certainty: 'certain', reason: 'same file', to } : { certainty: 'name-match', reason: 'defined more than once here' };
    }
    const bound = b.names.get(this.name);
    if (bound && bound.imported === this.name) return this.resolved(bound.spec, this.imports.resolveSpec(path, bound.spec), 'imports it from');
    if (bound) return { certainty: 'name-match', reason: `binds ${bound.imported} of ${bound.spec} to the name`, could: [] };
    if (o.role === 'import') {
      const v = this.verdict(o);
      return v;
    }
    if (this.memberDefinitions || this.qualified) return { certainty: 'name-match', reason: 'not a member access' };
    return { certainty: 'name-match', reason: 'the name is not imported here' };
  }

  /** `x.name`: certain where the receiver is known — a module binding, `exports`, `this` in the class, an instance or the class itself. */
  private memberVerdict(o: Occurrence, b: JsBindings, own: readonly ReferenceDefinition[]): Verdict {
    const text = this.lineText(o);
    const receiver = receiverOf(text, o.column);
    const before = text.slice(0, o.column - 1);
    if (/\b(?:module\s*\.\s*)?exports\s*\.\s*$/.test(before)) {
      // `exports.x = x` exports the definition; `exports.x = other()` another value of the name.
      const assigned = new RegExp(String.raw`^\s*=\s*${this.name.replace(/[$]/g, '\\$')}(?![\p{L}\p{N}_$])`, 'u').test(text.slice(o.column - 1 + this.name.length));
      const to = assigned ? this.imports.pick(own.filter((d) => !MEMBER_KINDS.has(d.kind) && !this.imports.isBinding(d))) : undefined;
      return to ? { certainty: 'certain', reason: 'exports it', to } : { certainty: 'name-match', reason: 'exports a value of the name', could: [] };
    }
    if (receiver === undefined) return { certainty: 'name-match', reason: "the receiver's type is not known" };
    const spec = b.modules.get(receiver);
    if (spec !== undefined) return this.resolved(spec, this.imports.resolveSpec(o.file.path, spec), `a member of ${receiver}, which is`);
    if (receiver === 'this' || receiver === 'super') {
      const to = this.enclosingMember(o, own);
      return to ? { certainty: 'certain', reason: 'this, inside its class', to } : { certainty: 'name-match', reason: "the receiver's type is not known" };
    }
    const created = b.instances.get(receiver);
    const annotated = created ? undefined : this.annotatedOwner(o, receiver);
    const owner = created ?? annotated ?? receiver;
    const members = this.membersOf(owner);
    if (members.length === 1) {
      const to = members[0] as ReferenceDefinition;
      const reached = to.path === o.file.path || b.names.has(owner) || b.modules.has(owner) || this.imports.reach(o.file.path, o.file.language).defs.has(to.path);
      if (reached) return { certainty: 'certain', reason: owner === receiver ? `a member of ${owner}` : annotated ? `${receiver} is annotated ${owner}` : `${receiver} is a new ${owner}`, to };
    }
    return { certainty: 'name-match', reason: "the receiver's type is not known" };
  }

  /** Other languages: by file — the defining file, a file importing it, its package — and methods by their receiver. */
  private verdict(o: Occurrence): Verdict {
    // `@name`, `$name`: a variable spelled like the name, never a call of the definition.
    if (o.spelling !== this.name) return { certainty: 'name-match', reason: `the variable ${o.spelling}` };
    if (this.definitions.length === 0) return { certainty: 'name-match', reason: 'not defined in the index' };
    const path = o.file.path;
    const at = this.definitionAt(o);
    if (o.role === 'definition' && at) return { certainty: 'certain', reason: 'definition', to: at };
    const here = this.imports.defsByPath.get(path);
    const common = COMMON_MEMBERS.has(this.name);
    if (here) {
      // `var isIP = require('node:net').isIP`: the second isIP is net's, which the binding names.
      if (o.role === 'import' && this.bindingLines.has(`${path}:${o.line}`) && !at) return { certainty: 'name-match', reason: "the imported module's own name" };
      const members = here.every((d) => MEMBER_KINDS.has(d.kind));
      if (o.role === 'member') {
        if (!here.some((d) => MEMBER_KINDS.has(d.kind)) && !this.qualified) return { certainty: 'name-match', reason: 'a member, and the definition here is not one' };
        if (common) return { certainty: 'name-match', reason: 'common member name' };
        return this.receiverVerdict(o, here);
      }
      // A method's bare name calls it only where an implicit receiver does.
      if (o.role === 'code' && (members || this.qualified)) {
        if (!IMPLICIT_RECEIVER.has(o.file.language)) return { certainty: 'name-match', reason: 'not a member access' };
        const to = this.enclosingMember(o, here);
        return to ? { certainty: 'certain', reason: 'inside its class', to } : { certainty: 'name-match', reason: 'outside the class that defines it' };
      }
      return { certainty: 'certain', reason: 'same file', to: this.imports.pick(here.filter((d) => !MEMBER_KINDS.has(d.kind)), o.line) ?? this.imports.pick(here, o.line) };
    }
    // A method is reached through a receiver: a bare name in another file is something else.
    if (o.role === 'code' && (this.qualified || this.memberDefinitions)) return { certainty: 'name-match', reason: 'not a member access' };
    const reach = this.imports.reach(path, o.file.language);
    if (reach.defs.size === 0) return { certainty: 'name-match', reason: this.imports.defsByPath.size === 1 ? `no import of ${[...this.imports.defsByPath.keys()][0]}` : 'no import of a defining file' };
    if (o.role === 'member' && common) return { certainty: 'name-match', reason: 'common member name' };
    if (o.role === 'member' && this.bindingDefinitions) return { certainty: 'name-match', reason: 'the definition binds an imported module, which others do not reach through it' };
    const reached = [...reach.defs].flatMap((d) => this.imports.defsByPath.get(d) ?? []);
    // A method of another file's class: only its class as the receiver says which it is.
    if (o.role === 'member' && reached.some((d) => MEMBER_KINDS.has(d.kind))) return this.receiverVerdict(o, reached);
    if (o.role === 'code' && !o.file.imports && NAMED_IMPORTS.has(o.file.language)) return { certainty: 'name-match', reason: 'the name is not imported here' };
    if (reach.defs.size > 1) return { certainty: 'name-match', reason: 'imports several definitions' };
    return { certainty: 'certain', reason: reach.via, to: this.imports.pick(reached.filter((d) => !MEMBER_KINDS.has(d.kind))) };
  }

  /**
   * A method through its receiver: `self.m()`, `this.m()`, `Self::m()` inside the class (impl)
   * that defines it, or the class named (`Runtime::m`). Any other receiver's type is not known,
   * and a method of one name in several types must not be merged.
   */
  private receiverVerdict(o: Occurrence, defs: readonly ReferenceDefinition[]): Verdict {
    const receiver = receiverOf(this.lineText(o), o.column);
    if (receiver !== undefined && SELF_RECEIVERS.has(receiver)) {
      const to = this.enclosingMember(o, defs.filter((d) => d.path === o.file.path));
      if (to) return { certainty: 'certain', reason: `${receiver}, inside its class`, to };
    } else if (receiver !== undefined) {
      // The class named (`Runtime::m`), or the type the receiver is annotated with (`h: &Handle`).
      const annotated = this.annotatedOwner(o, receiver);
      const owner = annotated ?? receiver;
      const named = defs.filter((d) => MEMBER_KINDS.has(d.kind) && ownerOf(d) === owner);
      if (named.length === 1) return { certainty: 'certain', reason: annotated ? `${receiver} is annotated ${owner}` : `a member of ${owner}`, to: named[0] as ReferenceDefinition };
    }
    // A module's function through the module (`models.fetch()`): not a method at all.
    const plain = defs.filter((d) => !MEMBER_KINDS.has(d.kind));
    if (plain.length > 0 && plain.length === defs.length) {
      const to = this.imports.pick(plain);
      if (to && to.path !== o.file.path) return { certainty: 'certain', reason: this.imports.reach(o.file.path, o.file.language).via, to };
    }
    return { certainty: 'name-match', reason: "the receiver's type is not known" };
  }
}
