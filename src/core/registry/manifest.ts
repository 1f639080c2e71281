// A pack's manifest, `pack.json` in the pack folder:
//
//   {
//     "schemaVersion": 1,
//     "id": "http/fetch-user",            entry id: segments of [A-Za-z0-9._-], `/`-separated
//     "title": "Fetching users",
//     "description": "...", "tags": ["http"],   optional
//     "sourceId": "acme-docs",
//     "packageVersion": "2.3.0",
//     "revision": "r7",                    content revision, an opaque label
//     "language": "typescript",
//     "trust": "verified" | "community" | "unreviewed",
//     "quality": 0.8,                      optional, 0..1
//     "primary": "DOC.md",                 DOC.md or SKILL.md, listed in files
//     "files": [{ "path": "DOC.md", "sha256": "<hex>", "role": "reference" }, ...],
//     "contentHash": "<hex>"               computeContentHash(files)
//   }
//
// Validation is strict (unknown keys are errors: a misspelt field must not pass as absent) and
// never repairs anything: an invalid manifest is reported and its pack is not served.
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { hashBytes } from '../discovery/read';
import { readRegularSync } from '../fsRead';
import { compareCodeUnits } from '../discovery/paths';
import type { RegistryDiagnosticCode } from './diagnostics';
import { checkManifestPath } from './paths';
import type { FileRole, PackFileRef, TrustLevel } from './types';

export const MANIFEST_FILE = 'pack.json';
export const PRIMARY_NAMES: readonly string[] = ['DOC.md', 'SKILL.md'];
const FILE_ROLES = ['primary', 'reference', 'example', 'errors', 'other'] as const;
const TRUST_LEVELS = ['verified', 'community', 'unreviewed'] as const;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits (SHA-256)');
const label = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+:@-]{0,63}$/, 'must be 1-64 characters of [A-Za-z0-9._+:@-]');
export const entryIdSchema = z
  .string()
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/, 'must be segments of [A-Za-z0-9._-] separated by /');
export const sourceIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of [A-Za-z0-9._-]');

export const fileRefSchema = z.object({ path: z.string().min(1).max(256), sha256, role: z.enum(FILE_ROLES).optional() }).strict();

/** Fields an entry has wherever it comes from (a local manifest or a remote document). */
export const entryFields = {
  id: entryIdSchema,
  title: z.string().min(1).max(200),
  description: z.string().max(4000).optional(),
  tags: z.array(z.string().min(1).max(64)).max(32).optional(),
  packageVersion: label,
  revision: label,
  language: z.string().min(1).max(32),
  trust: z.enum(TRUST_LEVELS),
  quality: z.number().min(0).max(1).optional(),
  primary: z.string().min(1).max(256),
  contentHash: sha256,
};

const manifestSchema = z
  .object({ schemaVersion: z.literal(1), sourceId: sourceIdSchema, ...entryFields, files: z.array(fileRefSchema).min(1).max(500) })
  .strict();

/** A validated entry: what a manifest (or a remote entry) says, with defaults filled in. */
export interface PackManifest {
  id: string;
  sourceId: string;
  title: string;
  description: string;
  tags: string[];
  language: string;
  packageVersion: string;
  revision: string;
  trust: TrustLevel;
  quality: number;
  primary: string;
  contentHash: string;
  files: PackFileRef[];
}

/** The validated shape, as kept in caches: re-checked on load so a tampered cache cannot crash us. */
export const packManifestSchema: z.ZodType<PackManifest> = z.object({
  id: z.string(),
  sourceId: z.string(),
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  language: z.string(),
  packageVersion: z.string(),
  revision: z.string(),
  trust: z.enum(TRUST_LEVELS),
  quality: z.number(),
  primary: z.string(),
  contentHash: z.string(),
  files: z.array(z.object({ path: z.string(), role: z.enum(FILE_ROLES), sha256: z.string() })),
});

export interface ManifestProblem {
  code: RegistryDiagnosticCode;
  message: string;
}

export type ManifestOutcome = { ok: true; manifest: PackManifest } | { ok: false; problems: ManifestProblem[]; id?: string };

/** SHA-256 over `<sha256>  <path>\n` lines sorted by path: one hash for a pack's whole content. */
export function computeContentHash(files: ReadonlyArray<{ path: string; sha256: string }>): string {
  const lines = files.map((f) => `${f.sha256}  ${f.path}\n`).sort(compareCodeUnits);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** Turns zod issues into problems: `files.1.sha256: must be 64 lower-case hex digits`. */
export function schemaProblems(error: z.ZodError, code: RegistryDiagnosticCode): ManifestProblem[] {
  return error.issues.slice(0, 10).map((i) => ({ code, message: `${i.path.length ? i.path.join('.') : '(document)'}: ${i.message}` }));
}

type EntryInput = z.infer<typeof manifestSchema>;

/** Rules a schema cannot say: safe unique paths, a listed DOC.md/SKILL.md primary, a consistent contentHash. */
export function checkEntryRules(
  entry: Omit<EntryInput, 'schemaVersion' | 'files'> & { files: Array<{ path: string; sha256: string; role?: FileRole | undefined }> },
  invalid: RegistryDiagnosticCode,
): ManifestOutcome {
  const problems: ManifestProblem[] = [];
  const seen = new Set<string>();
  for (const f of entry.files) {
    const check = checkManifestPath(f.path);
    if (!check.ok) problems.push({ code: check.code === 'path-traversal' ? 'path-traversal' : invalid, message: `files: ${check.message}` });
    if (seen.has(f.path)) problems.push({ code: invalid, message: `files: '${f.path}' is listed twice` });
    seen.add(f.path);
    if (f.role === 'primary' && f.path !== entry.primary) problems.push({ code: invalid, message: `files: '${f.path}' has role primary but primary is '${entry.primary}'` });
  }
  const primaryCheck = checkManifestPath(entry.primary);
  if (!primaryCheck.ok) problems.push({ code: primaryCheck.code === 'path-traversal' ? 'path-traversal' : invalid, message: `primary: ${primaryCheck.message}` });
  else if (!PRIMARY_NAMES.includes(path.posix.basename(entry.primary))) problems.push({ code: invalid, message: `primary: must be a DOC.md or SKILL.md, got '${entry.primary}'` });
  else if (!seen.has(entry.primary)) problems.push({ code: invalid, message: `primary: '${entry.primary}' is not listed in files` });
  if (problems.length === 0) {
    const computed = computeContentHash(entry.files);
    if (computed !== entry.contentHash) problems.push({ code: invalid, message: `contentHash ${entry.contentHash} does not match the declared files (${computed})` });
  }
  if (problems.length) return { ok: false, problems, id: entry.id };
  return {
    ok: true,
    manifest: {
      id: entry.id,
      sourceId: entry.sourceId,
      title: entry.title,
      description: entry.description ?? '',
      tags: entry.tags ?? [],
      language: entry.language,
      packageVersion: entry.packageVersion,
      revision: entry.revision,
      trust: entry.trust,
      quality: entry.quality ?? 0.5,
      primary: entry.primary,
      contentHash: entry.contentHash,
      files: entry.files.map((f) => ({ path: f.path, sha256: f.sha256, role: f.path === entry.primary ? 'primary' : (f.role ?? 'other') })),
    },
  };
}

/** Parses and validates the text of a pack.json. */
export function parseManifest(text: string): ManifestOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ code: 'invalid-manifest', message: `not JSON: ${(error as Error).message}` }] };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const id = entryIdSchema.safeParse((json as { id?: unknown } | null)?.id);
    return { ok: false, problems: schemaProblems(parsed.error, 'invalid-manifest'), ...(id.success ? { id: id.data } : {}) };
  }
  return checkEntryRules(parsed.data, 'invalid-manifest');
}

export type ManifestFields = Omit<PackManifest, 'files' | 'contentHash' | 'description' | 'tags' | 'quality'> &
  Partial<Pick<PackManifest, 'description' | 'tags' | 'quality'>> & {
    files: Array<{ path: string; role?: FileRole }>;
  };

/**
 * A manifest for the files of `packDir` as they are now: reads each file and fills in its hash
 * and the contentHash. For authoring tools and tests; the registry itself never writes manifests.
 */
export function buildManifest(packDir: string, fields: ManifestFields): Record<string, unknown> {
  const files = fields.files.map((f) => ({
    path: f.path,
    sha256: hashBytes(readRegularSync(path.join(packDir, ...f.path.split('/')), { followLinks: true })),
    ...(f.role ? { role: f.role } : {}),
  }));
  return { schemaVersion: 1, ...fields, files, contentHash: computeContentHash(files) };
}
