// Remote registries: off unless configured. A remote is an http(s) URL serving a document
//
//   {
//     "schemaVersion": 1,
//     "sourceId": "acme-remote",
//     "entries": [{
//       ...the entry fields of a pack.json (id, title, packageVersion, revision, language, trust,
//          primary, contentHash, optional description/tags/quality), without schemaVersion/sourceId,
//       "files": [
//         { "path": "DOC.md", "sha256": "<hex>", "content": "inline UTF-8 text" },
//         { "path": "references/api.md", "sha256": "<hex>", "url": "files/api.md", "role": "reference" }
//       ]
//     }]
//   }
//
// A file has either `content` or a `url` (resolved against the document URL, http(s) only).
// One refresh (document plus linked files) is bounded by timeoutMs and maxBytes; every file is
// checked against its hash and the whole document is accepted or refused as one. When a refresh
// fails, the last accepted copy (kept in the cache folder) answers, marked servedFromCache.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import { hashBytes } from '../discovery/read';
import { readCacheFile, writeCacheFile } from './cacheFiles';
import { diagnostic, type RegistryDiagnostic, type RegistryDiagnosticCode } from './diagnostics';
import { decodeUtf8 } from './files';
import { fetchBounded } from './http';
import { checkEntryRules, entryFields, packManifestSchema, schemaProblems, sourceIdSchema, type ManifestProblem, type PackManifest } from './manifest';
import type { CacheStatus, RemoteSourceConfig } from './types';

export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;
export const DEFAULT_REMOTE_MAX_BYTES = 5_000_000;

const remoteFileSchema = z
  .object({
    path: z.string().min(1).max(256),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (SHA-256)'),
    role: z.enum(['primary', 'reference', 'example', 'errors', 'other']).optional(),
    content: z.string().optional(),
    url: z.string().min(1).optional(),
  })
  .strict()
  .refine((f) => (f.content === undefined) !== (f.url === undefined), 'a file needs exactly one of content or url');
const remoteDocumentSchema = z
  .object({
    schemaVersion: z.literal(1),
    sourceId: sourceIdSchema,
    entries: z.array(z.object({ ...entryFields, files: z.array(remoteFileSchema).min(1).max(500) }).strict()).max(5000),
  })
  .strict();

/** An entry of an accepted remote document, with every file's verified text. */
export interface RemoteEntry {
  manifest: PackManifest;
  /** path -> UTF-8 text. */
  contents: Record<string, string>;
}

const cacheSchema = z.object({
  schemaVersion: z.literal(1),
  url: z.string(),
  fetchedAtMs: z.number(),
  etag: z.string().nullable(),
  documentHash: z.string(),
  sourceId: z.string(),
  entries: z.array(z.object({ manifest: packManifestSchema, contents: z.record(z.string()) })),
});
type RemoteCache = z.infer<typeof cacheSchema>;

export interface RemoteSnapshot {
  url: string;
  status: CacheStatus | 'unavailable';
  servedFromCache: boolean;
  fetchedAtMs: number | null;
  /** SHA-256 of the accepted document. */
  documentHash: string | null;
  entries: RemoteEntry[];
  diagnostics: RegistryDiagnostic[];
}

type Refusal = { code: RegistryDiagnosticCode; message: string };

export function remoteCacheFile(cacheDir: string, url: string): string {
  return path.join(cacheDir, `remote-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);
}

export async function refreshRemote(config: RemoteSourceConfig, cacheDir: string): Promise<RemoteSnapshot> {
  const url = config.url;
  const cacheFile = remoteCacheFile(cacheDir, url);
  const cached = readCacheFile(cacheFile, cacheSchema);
  const fromCache = (status: CacheStatus, diagnostics: RegistryDiagnostic[], servedFromCache: boolean): RemoteSnapshot =>
    cached
      ? { url, status, servedFromCache, fetchedAtMs: cached.fetchedAtMs, documentHash: cached.documentHash, entries: cached.entries, diagnostics }
      : { url, status: 'unavailable', servedFromCache: false, fetchedAtMs: null, documentHash: null, entries: [], diagnostics };
  const refuse = (refusals: Refusal[]): RemoteSnapshot => {
    const severity = cached ? 'warning' : 'error';
    // One diagnostic per kind of failure: a broken document can have dozens of schema issues.
    const byCode = new Map<RegistryDiagnosticCode, string[]>();
    for (const r of refusals) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r.message]);
    const diagnostics = [...byCode].map(([code, messages]) => diagnostic(code, severity, messages.join('; '), { url }));
    if (cached) diagnostics.push(diagnostic('remote-fallback', 'warning', `using the copy of ${url} fetched at ${new Date(cached.fetchedAtMs).toISOString()}`, { url }));
    return fromCache('hit', diagnostics, true);
  };

  if (!/^https?:$/.test(safeProtocol(url))) return refuse([{ code: 'invalid-config', message: `remote registries must be http(s) URLs, got '${url}'` }]);
  if (cached && (config.maxAgeMs ?? 0) > 0 && Date.now() - cached.fetchedAtMs < (config.maxAgeMs ?? 0)) return fromCache('hit', [], false);

  const signal = AbortSignal.timeout(config.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS);
  const budget = { left: config.maxBytes ?? DEFAULT_REMOTE_MAX_BYTES };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  const response = await fetchBounded(url, { signal, maxBytes: budget.left, headers });
  if (!response.ok) return refuse([response]);
  const now = Date.now();
  if (response.notModified) {
    if (!cached) return refuse([{ code: 'remote-http-error', message: `${url} answered 304 Not Modified to a request without a cached copy` }]);
    return remember({ ...cached, fetchedAtMs: now }, 'hit');
  }
  budget.left -= response.body.length;
  const documentHash = hashBytes(response.body);
  if (config.sha256 && config.sha256 !== documentHash) {
    return refuse([{ code: 'hash-mismatch', message: `${url} has SHA-256 ${documentHash}, the configuration pins ${config.sha256}` }]);
  }
  if (cached && cached.documentHash === documentHash) return remember({ ...cached, fetchedAtMs: now, etag: response.etag }, 'hit');
  const accepted = await acceptDocument(url, response.body, signal, budget);
  if ('refusals' in accepted) return refuse(accepted.refusals);
  return remember({ schemaVersion: 1, url, fetchedAtMs: now, etag: response.etag, documentHash, sourceId: accepted.sourceId, entries: accepted.entries }, cached ? 'refreshed' : 'rebuilt');

  function remember(next: RemoteCache, status: CacheStatus): RemoteSnapshot {
    const failed = writeCacheFile(cacheFile, next);
    return { url, status, servedFromCache: false, fetchedAtMs: next.fetchedAtMs, documentHash: next.documentHash, entries: next.entries, diagnostics: failed ? [failed] : [] };
  }
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/** Parses and verifies a document; downloads linked files within the same deadline and byte budget. */
async function acceptDocument(
  url: string,
  body: Buffer,
  signal: AbortSignal,
  budget: { left: number },
): Promise<{ sourceId: string; entries: RemoteEntry[] } | { refusals: Refusal[] }> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { refusals: [{ code: 'remote-bad-schema', message: `${url} is not JSON: ${(error as Error).message}` }] };
  }
  const parsed = remoteDocumentSchema.safeParse(json);
  if (!parsed.success) return { refusals: prefixed(url, schemaProblems(parsed.error, 'remote-bad-schema')) };
  const entries: RemoteEntry[] = [];
  const ids = new Set<string>();
  for (const raw of parsed.data.entries) {
    if (ids.has(raw.id)) return { refusals: [{ code: 'duplicate-id', message: `${url}: entry ${raw.id} appears twice` }] };
    ids.add(raw.id);
    const checked = checkEntryRules({ ...raw, sourceId: parsed.data.sourceId }, 'remote-bad-schema');
    if (!checked.ok) return { refusals: prefixed(url, checked.problems.map((p) => ({ ...p, message: `entry ${raw.id}: ${p.message}` }))) };
    const contents: Record<string, string> = {};
    for (const file of raw.files) {
      const bytes = file.content !== undefined ? Buffer.from(file.content, 'utf8') : await download(url, file.url ?? '', signal, budget);
      if ('code' in bytes) return { refusals: [bytes] };
      const actual = hashBytes(bytes);
      if (actual !== file.sha256) {
        return { refusals: [{ code: 'hash-mismatch', message: `entry ${raw.id}: ${file.path} has SHA-256 ${actual}, the document declares ${file.sha256}` }] };
      }
      const text = decodeUtf8(bytes);
      if (text === undefined) return { refusals: [{ code: 'invalid-utf8', message: `entry ${raw.id}: ${file.path} is not UTF-8 text` }] };
      contents[file.path] = text;
    }
    entries.push({ manifest: checked.manifest, contents });
  }
  return { sourceId: parsed.data.sourceId, entries };
}

async function download(base: string, link: string, signal: AbortSignal, budget: { left: number }): Promise<Buffer | Refusal> {
  let target: URL;
  try {
    target = new URL(link, base);
  } catch {
    return { code: 'remote-bad-schema', message: `'${link}' is not a URL` };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { code: 'remote-bad-schema', message: `'${link}' is not an http(s) URL` };
  const response = await fetchBounded(target.href, { signal, maxBytes: budget.left });
  if (!response.ok) return response;
  if (response.notModified) return { code: 'remote-http-error', message: `${target.href} answered 304 to an unconditional request` };
  budget.left -= response.body.length;
  return response.body;
}

function prefixed(url: string, problems: ManifestProblem[]): Refusal[] {
  return problems.map((p, i) => ({ code: p.code, message: i === 0 ? `${url}: ${p.message}` : p.message }));
}
