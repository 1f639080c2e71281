// Cairn's references against a language server's (scripts/refs-ls-check.mjs): for names Cairn
// defines once, how many of the references it calls certain the language server confirms
// (precision), and how many of the server's references Cairn returns (recall). A certain
// reference is confirmed when the server's references of the definition hold it, or when the
// server's go-to-definition at it lands on the definition: tsserver's references miss calls
// through a CommonJS alias (`exports.x = x`, then `utils.x()`) that its go-to-definition follows.
// Pure scoring; the run (`cairn eval --refs --all-refs`, the in-host suite asking VS Code's
// `vscode.executeReferenceProvider`) is the script's.
//
// The definition itself is left out on both sides: Cairn lists it as a reference of role
// `definition`, a server includes it as the declaration. Imports stay in: TypeScript's server
// reports `import { x }` and `export { x } from` as references of x, as Cairn does.
import type { CairnReference, DefinitionPlace } from './refsCheck';

/** A place a language server answered, 1-based, `endColumn` one past the last character. */
export interface LsLocation {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Where the server's go-to-definition at one of Cairn's references leads (inside the workspace). */
export interface LsDefinitionsAt {
  path: string;
  line: number;
  column: number;
  locations: LsLocation[];
}

/** The server's answer for one name: `locations` inside the workspace, how many were outside it. */
export interface LsAnswer {
  name: string;
  definition: DefinitionPlace;
  locations: LsLocation[];
  outside: number;
  /** Go-to-definition at the certain references `locations` does not hold. */
  definitionsAt?: LsDefinitionsAt[];
  error?: string;
  ms: number;
}

/** A certain reference the server does not report, with what Cairn said of it. */
export interface Disconfirmed extends CairnReference {
  /** The line's text, when the caller reads it. */
  text?: string;
}

export interface LsNameScore {
  name: string;
  definition: DefinitionPlace;
  /** The server reported the definition's place: its answer is about this name. */
  answered: boolean;
  certain: number;
  confirmed: number;
  /** Of `confirmed`, those only go-to-definition confirms. */
  confirmedByDefinition: number;
  disconfirmed: Disconfirmed[];
  /** Roles of the certain references, and of those confirmed. */
  byRole: Record<string, { certain: number; confirmed: number }>;
  lsReferences: number;
  /** The server's references Cairn returns (certain or a name match), and those it calls certain. */
  found: number;
  foundCertain: number;
  /** Some of the server's references Cairn does not return (at most 5). */
  missed: LsLocation[];
}

export interface LsSummary {
  names: number;
  /** Names whose answer held the definition (the others are left out of every figure). */
  answered: number;
  certain: number;
  confirmed: number;
  confirmedByDefinition: number;
  precision: number;
  byRole: Record<string, { certain: number; confirmed: number; precision: number }>;
  lsReferences: number;
  found: number;
  foundCertain: number;
  recall: number;
  certainRecall: number;
}

/** Compares (line, column) positions. */
const before = (aLine: number, aColumn: number, bLine: number, bColumn: number): boolean => aLine < bLine || (aLine === bLine && aColumn < bColumn);

/** Whether the name at `ref` (its `length` characters) overlaps the server's range. */
export function overlaps(ref: { path: string; line: number; column: number }, length: number, loc: LsLocation): boolean {
  if (ref.path !== loc.path) return false;
  return before(ref.line, ref.column, loc.endLine, loc.endColumn) && before(loc.line, loc.column, ref.line, ref.column + length);
}

type Place = { path: string; line: number; column: number };
const samePlace = (r: Place, d: Place): boolean => r.path === d.path && r.line === d.line && r.column === d.column;

/** Cairn's certain references (the definition left out) whose places the server's references do not hold: where go-to-definition is asked. */
export function unconfirmedCertain(name: string, definition: DefinitionPlace, references: readonly CairnReference[], locations: readonly LsLocation[]): CairnReference[] {
  return references.filter((r) => r.certain && !samePlace(r, definition) && !locations.some((l) => overlaps(r, name.length, l)));
}

export function scoreName(name: string, definition: DefinitionPlace, references: readonly CairnReference[], answer: Pick<LsAnswer, 'locations' | 'definitionsAt'>): LsNameScore {
  const length = name.length;
  const answered = answer.locations.some((l) => overlaps(definition, length, l));
  const lsRefs = answer.locations.filter((l) => !overlaps(definition, length, l));
  const ours = references.filter((r) => !samePlace(r, definition));
  const byRole: LsNameScore['byRole'] = {};
  const disconfirmed: Disconfirmed[] = [];
  const leadsToDefinition = (r: CairnReference): boolean =>
    answer.definitionsAt?.some((d) => samePlace(d, r) && d.locations.some((l) => overlaps(definition, length, l))) ?? false;
  let certain = 0;
  let confirmed = 0;
  let confirmedByDefinition = 0;
  for (const r of ours) {
    if (!r.certain) continue;
    const role = r.role ?? 'code';
    const tally = (byRole[role] ??= { certain: 0, confirmed: 0 });
    certain++;
    tally.certain++;
    const referenced = lsRefs.some((l) => overlaps(r, length, l));
    if (referenced || leadsToDefinition(r)) {
      confirmed++;
      tally.confirmed++;
      if (!referenced) confirmedByDefinition++;
    } else disconfirmed.push(r);
  }
  let found = 0;
  let foundCertain = 0;
  const missed: LsLocation[] = [];
  for (const l of lsRefs) {
    const ref = ours.find((r) => overlaps(r, length, l));
    if (ref) {
      found++;
      if (ref.certain) foundCertain++;
    } else if (missed.length < 5) missed.push(l);
  }
  return { name, definition, answered, certain, confirmed, confirmedByDefinition, disconfirmed, byRole, lsReferences: lsRefs.length, found, foundCertain, missed };
}

const share = (part: number, whole: number): number => (whole ? part / whole : 1);

export function summariseLs(scores: readonly LsNameScore[]): LsSummary {
  const s = { names: scores.length, answered: 0, certain: 0, confirmed: 0, confirmedByDefinition: 0, lsReferences: 0, found: 0, foundCertain: 0 };
  const roles: Record<string, { certain: number; confirmed: number }> = {};
  for (const n of scores) {
    if (!n.answered) continue;
    s.answered++;
    s.certain += n.certain;
    s.confirmed += n.confirmed;
    s.confirmedByDefinition += n.confirmedByDefinition;
    s.lsReferences += n.lsReferences;
    s.found += n.found;
    s.foundCertain += n.foundCertain;
    for (const [role, t] of Object.entries(n.byRole)) {
      const r = (roles[role] ??= { certain: 0, confirmed: 0 });
      r.certain += t.certain;
      r.confirmed += t.confirmed;
    }
  }
  const byRole: LsSummary['byRole'] = {};
  for (const role of Object.keys(roles).sort()) {
    const r = roles[role] as { certain: number; confirmed: number };
    byRole[role] = { ...r, precision: share(r.confirmed, r.certain) };
  }
  return {
    ...s,
    precision: share(s.confirmed, s.certain),
    byRole,
    recall: share(s.found, s.lsReferences),
    certainRecall: share(s.foundCertain, s.lsReferences),
  };
}

const f3 = (v: number): string => v.toFixed(3);
const place = (p: { path: string; line: number; column: number }): string => `${p.path}:${p.line}:${p.column}`;

/** The figures, one per line. */
export function formatLsSummary(s: LsSummary): string[] {
  const roles = Object.entries(s.byRole).map(([role, r]) => `${role} ${r.confirmed}/${r.certain}`);
  return [
    `names: ${s.names} (${s.answered} whose language server answer holds the definition; the rest left out)`,
    `precision of certain references: ${f3(s.precision)} (${s.confirmed} of ${s.certain} confirmed by the language server, ${s.confirmedByDefinition} of them only by its go-to-definition; by role: ${roles.join(', ') || 'none'})`,
    `recall vs the language server: ${f3(s.recall)} (${s.found} of its ${s.lsReferences} references returned by Cairn), ${f3(s.certainRecall)} marked certain (${s.foundCertain})`,
  ];
}

/** The names with the most certain references the server does not confirm, each with some of them. */
export function formatWorst(scores: readonly LsNameScore[], count: number, perName = 3): string[] {
  const worst = scores.filter((n) => n.answered && n.disconfirmed.length > 0).sort((a, b) => b.disconfirmed.length - a.disconfirmed.length || (a.name < b.name ? -1 : 1));
  const lines: string[] = [];
  for (const n of worst.slice(0, count)) {
    lines.push(`${n.name} (${n.definition.kind} at ${place(n.definition)}): ${n.disconfirmed.length} of ${n.certain} certain not confirmed`);
    for (const r of n.disconfirmed.slice(0, perName)) lines.push(`    ${place(r)} ${r.role ?? 'code'}, ${r.reason ?? ''}${r.text ? `  ${r.text}` : ''}`);
  }
  return lines;
}
