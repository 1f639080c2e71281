// Typed access to the `cairn.*` settings (documented in package.json `contributes.configuration`;
// engineOptions.ts says what they mean to the engine). Settings are read fresh on every call: the
// value the Settings UI just wrote is the value the indexer uses, with no cached copy to go stale.
import * as vscode from 'vscode';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_POLICY, type Bucket } from '../core/clientApi';
import type { ChunkStrategy, Scope } from '../core/api';

export interface CairnSettings {
  /** Globs (relative to the folder) a file must match to be indexed; empty = every eligible file. */
  include: string[];
  /** Globs of files left out of the index. */
  exclude: string[];
  /** Files larger than this many bytes are skipped. */
  maxFileSize: number;
  /** Enabled language ids or aliases (`ts`, `python`); empty = every known language. */
  languages: string[];
  chunking: {
    strategy: ChunkStrategy;
    lineChunkChars: Record<Bucket, number>;
    astMaxChars: number;
  };
  /** Re-index files saved in VS Code. */
  indexOnSave: boolean;
  /** Results per search. */
  resultLimit: number;
  search: { scope: Scope };
  registry: { dir: string };
  /** Milliseconds the language servers get to answer a references request (all definitions together); 0 = the index only. */
  references: { languageServerTimeout: number };
  /** Local tool-use counters in the folder's store (never sent anywhere). */
  agent: { usageCounters: boolean; serveTerminal: boolean };
}

export const SECTION = 'cairn';
/** `cairn.references.languageServerTimeout`'s default: enough for a warm server, not a cold start on a big project. */
export const DEFAULT_LANGUAGE_SERVER_TIMEOUT_MS = 4000;

const SCOPES: readonly Scope[] = ['auto', 'code', 'docs', 'all'];

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean) : [];
}

function positiveInt(value: unknown, fallback: number, min = 1): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min ? Math.floor(value) : fallback;
}

/** The settings for a folder (resource-scoped settings may differ per workspace folder). */
export function readSettings(scope?: vscode.ConfigurationScope): CairnSettings {
  const c = vscode.workspace.getConfiguration(SECTION, scope);
  const lineChars = c.get<Partial<Record<Bucket, unknown>>>('chunking.lineChunkChars') ?? {};
  const strategy = c.get<string>('chunking.strategy');
  const scopeSetting = c.get<string>('search.scope') as Scope | undefined;
  return {
    include: stringList(c.get('include')),
    exclude: stringList(c.get('exclude')),
    maxFileSize: positiveInt(c.get('maxFileSize'), DEFAULT_MAX_FILE_BYTES),
    languages: stringList(c.get('languages')),
    chunking: {
      strategy: strategy === 'lines' ? 'lines' : 'ast',
      lineChunkChars: {
        code: positiveInt(lineChars.code, DEFAULT_POLICY.lineChunkChars.code, 50),
        prose: positiveInt(lineChars.prose, DEFAULT_POLICY.lineChunkChars.prose, 50),
        config: positiveInt(lineChars.config, DEFAULT_POLICY.lineChunkChars.config, 50),
      },
      astMaxChars: positiveInt(c.get('chunking.astMaxChars'), DEFAULT_POLICY.astMaxChars, 100),
    },
    indexOnSave: c.get<boolean>('indexOnSave') ?? true,
    resultLimit: Math.min(500, positiveInt(c.get('resultLimit'), 50)),
    search: { scope: scopeSetting && SCOPES.includes(scopeSetting) ? scopeSetting : 'auto' },
    registry: { dir: (c.get<string>('registry.dir') ?? '').trim() },
    references: { languageServerTimeout: positiveInt(c.get('references.languageServerTimeout'), DEFAULT_LANGUAGE_SERVER_TIMEOUT_MS, 0) },
    agent: { usageCounters: c.get<boolean>('agent.usageCounters') !== false, serveTerminal: c.get<boolean>('agent.serveTerminal') === true },
  };
}
