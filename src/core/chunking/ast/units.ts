// Items and units: how the members of a container are listed and grouped before chunking.
import type { Language } from 'web-tree-sitter';
import type { DefInfo } from './spec';
import type { Splittable } from './split';

export type Role = 'def' | 'comment' | 'attribute' | 'punct' | 'code';

export const PUNCTUATION = /^[\s{}()[\];,.:]*$/;

/** One member of a container: a node, or raw text outside a flattened node. */
export interface Item extends Splittable {
  role: Role;
  startIndex: number;
  def?: DefInfo;
  /** A visibility marker (`private:`) applying to later members. */
  section?: string;
}

/** Consecutive items sharing rows, plus the comments/attributes attached above. */
export interface Unit {
  role: Role;
  items: Item[];
  prefix: Item[];
  startRow: number;
  endRow: number;
  startIndex: number;
  endIndex: number;
}

/** Groups items sharing rows into units and attaches comments/attributes to the definition below. */
export function groupUnits(items: readonly Item[]): Unit[] {
  const raw: Unit[] = [];
  let cur: Unit | undefined;
  for (const it of items) {
    if (cur && it.startRow <= cur.endRow) {
      cur.items.push(it);
      if (it.endRow > cur.endRow) cur.endRow = it.endRow;
      if (it.endIndex > cur.endIndex) cur.endIndex = it.endIndex;
    } else {
      cur = { role: 'code', items: [it], prefix: [], startRow: it.startRow, endRow: it.endRow, startIndex: it.startIndex, endIndex: it.endIndex };
      raw.push(cur);
    }
  }
  const units: Unit[] = [];
  for (const u of raw) {
    u.role = unitRole(u.items);
    const last = units[units.length - 1];
    if (u.role === 'punct' && last) {
      absorbAfter(last, u);
      continue;
    }
    if (last?.role === 'punct') {
      // Leading punctuation (a JSON file's `{`) joins what follows it.
      units.pop();
      absorbBefore(u, last);
    }
    if (u.role === 'def') {
      for (let prev = units[units.length - 1]; prev; prev = units[units.length - 1]) {
        const adjacent = prev.endRow >= u.startRow - 1;
        if (!((prev.role === 'comment' && adjacent) || prev.role === 'attribute')) break;
        units.pop();
        absorbBefore(u, prev);
      }
    }
    units.push(u);
  }
  return units;
}

/** Node type names and namedness by type id, cached: each property read on a node is a wasm call. */
export class TypeTable {
  private readonly named = new Map<number, boolean>();

  constructor(private readonly language: Language) {}

  name(typeId: number): string {
    return this.language.types[typeId] ?? 'ERROR';
  }

  isNamed(typeId: number): boolean {
    let named = this.named.get(typeId);
    if (named === undefined) {
      named = this.language.types[typeId] === undefined || this.language.nodeTypeIsNamed(typeId);
      this.named.set(typeId, named);
    }
    return named;
  }
}

function unitRole(items: readonly Item[]): Role {
  let comments = 0;
  let attributes = 0;
  let punct = 0;
  for (const it of items) {
    if (it.role === 'def') return 'def';
    if (it.role === 'comment') comments++;
    else if (it.role === 'attribute') attributes++;
    else if (it.role === 'punct') punct++;
  }
  if (punct === items.length) return 'punct';
  if (comments === items.length) return 'comment';
  if (attributes > 0 && attributes + comments === items.length) return 'attribute';
  return 'code';
}

/** `late` joins the end of `u` (trailing punctuation). */
function absorbAfter(u: Unit, late: Unit): void {
  u.items.push(...late.items);
  u.endRow = Math.max(u.endRow, late.endRow);
  u.endIndex = Math.max(u.endIndex, late.endIndex);
}

/** `early` (comments, attributes, punctuation) joins the start of `u` as its attached prefix. */
function absorbBefore(u: Unit, early: Unit): void {
  u.prefix = [...early.prefix, ...early.items, ...u.prefix];
  u.startRow = early.startRow;
  u.startIndex = early.startIndex;
}

const tables = new WeakMap<Language, TypeTable>();

/** One table per grammar, shared by every file parsed with it. */
export function typeTableFor(language: Language): TypeTable {
  let table = tables.get(language);
  if (!table) {
    table = new TypeTable(language);
    tables.set(language, table);
  }
  return table;
}
