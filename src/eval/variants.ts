// Engine settings to compare in one evaluation run. A variant is a name plus overrides of the
// engine's ranking boosts, BM25F field parameters, chunking policy and strategy, written as
// `key=value` settings:
//
//   ranking.exactDefinition=2         a RankingParams factor (> 0), or a signal's share (>= 0)
//   fieldParams.symbol.weight=4       a field's BM25F weight (> 0) or b (0..1)
//   policy.astMaxChars=1200           chunk sizes in characters (>= 50)
//   policy.lineChunkChars.code=800    per bucket: code, prose, config
//   policy.suffixChunkChars..md=600   per suffix (with its dot)
//   strategy=lines                    ast (default) or lines
import type { ChunkingPolicy } from '../core/chunking/policy';
import { DEFAULT_POLICY, resolvePolicy } from '../core/chunking/policy';
import { DEFAULT_FIELD_PARAMS, FIELDS, type FieldName, type FieldParams } from '../core/index/fields';
import { DEFAULT_RANKING, type RankingParams } from '../core/search/search';
import type { ChunkStrategy } from '../core/types';

export interface EvalVariant {
  name: string;
  ranking?: Partial<RankingParams>;
  fieldParams?: Partial<Record<FieldName, FieldParams>>;
  policy?: Partial<ChunkingPolicy>;
  strategy?: ChunkStrategy;
}

export const DEFAULT_VARIANT: EvalVariant = { name: 'default' };

/** The variants a run compares: those asked for, else the defaults alone. */
export function variantsToRun(asked: readonly EvalVariant[] | undefined): EvalVariant[] {
  return asked?.length ? [...asked] : [DEFAULT_VARIANT];
}

/** A table row's name: `name`, marked with its variant unless that is the default (`cairn files [w7]`). */
export function rowName(name: string, variant?: string): string {
  return variant && variant !== DEFAULT_VARIANT.name ? `${name} [${variant}]` : name;
}

/** A setting that cannot be applied; the message names the key and what is allowed. */
export class VariantError extends Error {
  override readonly name = 'VariantError';
}

const RANKING_KEYS = Object.keys(DEFAULT_RANKING) as Array<keyof RankingParams>;
/** Ranking settings that add a signal's share (0 turns it off); the others are factors (> 0). */
const SIGNAL_SHARES: ReadonlySet<keyof RankingParams> = new Set(['fileCoverage', 'pastCommit', 'pastCommitWords']);
const BUCKETS = Object.keys(DEFAULT_POLICY.lineChunkChars);

function number(key: string, value: string, min: number, max = Number.POSITIVE_INFINITY, exclusiveMin = false): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || (exclusiveMin && n === min) || n > max) {
    const range = max === Number.POSITIVE_INFINITY ? `${exclusiveMin ? '>' : '>='} ${min}` : `between ${min} and ${max}`;
    throw new VariantError(`${key} must be a number ${range}, got '${value}'`);
  }
  return n;
}

/** Applies one `key=value` setting to a variant (in place). */
export function applySetting(variant: EvalVariant, setting: string): void {
  const eq = setting.indexOf('=');
  if (eq <= 0) throw new VariantError(`a setting is key=value, got '${setting}'`);
  const key = setting.slice(0, eq).trim();
  const value = setting.slice(eq + 1).trim();
  const [group, ...rest] = key.split('.');
  if (group === 'strategy' && rest.length === 0) {
    if (value !== 'ast' && value !== 'lines') throw new VariantError(`strategy must be ast or lines, got '${value}'`);
    variant.strategy = value;
    return;
  }
  if (group === 'ranking' && rest.length === 1) {
    const name = rest[0] as keyof RankingParams;
    if (!RANKING_KEYS.includes(name)) throw new VariantError(`unknown ranking parameter '${rest[0]}' (known: ${RANKING_KEYS.join(', ')})`);
    variant.ranking = { ...variant.ranking, [name]: number(key, value, 0, Number.POSITIVE_INFINITY, !SIGNAL_SHARES.has(name)) };
    return;
  }
  if ((group === 'fieldParams' || group === 'fields') && rest.length === 2) {
    const [field, param] = rest as [FieldName, string];
    if (!FIELDS.includes(field)) throw new VariantError(`unknown field '${field}' (known: ${FIELDS.join(', ')})`);
    if (param !== 'weight' && param !== 'b') throw new VariantError(`a field parameter is weight or b, got '${param}'`);
    const current = variant.fieldParams?.[field] ?? DEFAULT_FIELD_PARAMS[field];
    const next = param === 'weight' ? { ...current, weight: number(key, value, 0, Number.POSITIVE_INFINITY, true) } : { ...current, b: number(key, value, 0, 1) };
    variant.fieldParams = { ...variant.fieldParams, [field]: next };
    return;
  }
  if (group === 'policy') {
    const [name, ...sub] = rest;
    if (name === 'astMaxChars' && sub.length === 0) {
      variant.policy = { ...variant.policy, astMaxChars: number(key, value, 50) };
      return;
    }
    if (name === 'lineChunkChars' && sub.length === 1 && BUCKETS.includes(sub[0] as string)) {
      const lineChunkChars = { ...DEFAULT_POLICY.lineChunkChars, ...variant.policy?.lineChunkChars, [sub[0] as string]: number(key, value, 50) };
      variant.policy = { ...variant.policy, lineChunkChars };
      return;
    }
    if (name === 'suffixChunkChars' && sub.length > 0) {
      const suffix = sub.join('.').toLowerCase();
      if (!suffix.startsWith('.') || suffix.length < 2) throw new VariantError(`a suffix key is policy.suffixChunkChars..ext (with the dot), got '${key}'`);
      variant.policy = { ...variant.policy, suffixChunkChars: { ...variant.policy?.suffixChunkChars, [suffix]: number(key, value, 50) } };
      return;
    }
  }
  throw new VariantError(`unknown setting '${key}' (ranking.NAME, fieldParams.FIELD.weight|b, policy.astMaxChars, policy.lineChunkChars.code|prose|config, policy.suffixChunkChars..EXT, strategy)`);
}

/** A variant from `key=value` settings; named after them unless a name is given. */
export function variantFromSettings(settings: readonly string[], name?: string): EvalVariant {
  const variant: EvalVariant = { name: name ?? settings.join(',') };
  for (const s of settings) applySetting(variant, s);
  return variant;
}

/** The `key=value` settings equivalent to a structured object (`{ranking: {test: 0.5}}` -> `ranking.test=0.5`). */
function flatten(prefix: string, value: unknown, out: string[]): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
  } else if (typeof value === 'number' || typeof value === 'string') {
    out.push(`${prefix}=${value}`);
  } else {
    throw new VariantError(`${prefix}: expected a number or a string, got ${JSON.stringify(value)}`);
  }
}

/**
 * Variants from a `--config` file's JSON: `{"variants": [...]}` or a bare array. Each variant
 * is `{"name", "ranking"?, "fieldParams"?, "policy"?, "strategy"?, "settings"?: ["key=value"]}`.
 */
export function variantsFromConfig(json: unknown): EvalVariant[] {
  const list = Array.isArray(json) ? json : json !== null && typeof json === 'object' && Array.isArray((json as { variants?: unknown }).variants) ? (json as { variants: unknown[] }).variants : undefined;
  if (!list) throw new VariantError('the config file must hold {"variants": [...]} or an array of variants');
  return list.map((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new VariantError(`variant ${i + 1} is not an object`);
    const { name, settings, ...structured } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !name.trim()) throw new VariantError(`variant ${i + 1} needs a "name"`);
    if (settings !== undefined && (!Array.isArray(settings) || settings.some((s) => typeof s !== 'string'))) throw new VariantError(`variant ${name}: "settings" must be an array of "key=value" strings`);
    for (const key of Object.keys(structured)) {
      if (!['ranking', 'fieldParams', 'fields', 'policy', 'strategy'].includes(key)) throw new VariantError(`variant ${name}: unknown key "${key}"`);
    }
    const flat: string[] = [];
    flatten('', structured, flat);
    return variantFromSettings([...flat, ...((settings as string[] | undefined) ?? [])], name.trim());
  });
}

/** The settings a variant overrides, for the report. */
export function variantSettings(v: EvalVariant): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.ranking) out.ranking = v.ranking;
  if (v.fieldParams) out.fieldParams = v.fieldParams;
  if (v.policy) out.policy = v.policy;
  if (v.strategy) out.strategy = v.strategy;
  return out;
}

/** Variants that chunk alike share one index store: the key says which. */
export function storeKey(v: EvalVariant): string {
  return JSON.stringify({ policy: resolvePolicy(v.policy), strategy: v.strategy ?? 'ast' });
}
