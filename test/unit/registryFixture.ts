// Temporary repositories with a context registry, for the registry tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContextRegistry, buildManifest, computeContentHash, type ManifestFields, type RegistryDiagnostic, type RegistryOptions } from '../../src/core/registry';

export const REGISTRY = '.agent-context/registry';

export interface PackSpec extends Partial<Omit<ManifestFields, 'files'>> {
  /** path -> content; the primary defaults to DOC.md. */
  files: Record<string, string>;
  roles?: Record<string, 'reference' | 'example' | 'errors' | 'other'>;
}

export class RegistryFixture {
  readonly base: string;
  readonly root: string;
  readonly cacheDir: string;

  constructor() {
    this.base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-registry-')));
    this.root = path.join(this.base, 'repo');
    this.cacheDir = path.join(this.base, 'cache');
    fs.mkdirSync(this.root);
  }

  abs(rel: string): string {
    return path.join(this.root, ...rel.split('/'));
  }

  write(rel: string, content: string | Buffer): void {
    fs.mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    fs.writeFileSync(this.abs(rel), content);
  }

  read(rel: string): string {
    return fs.readFileSync(this.abs(rel), 'utf8');
  }

  /** Writes a pack's files and a manifest whose hashes match them. Returns the pack folder (root-relative). */
  pack(dir: string, spec: PackSpec): string {
    const packDir = `${REGISTRY}/${dir}`;
    for (const [rel, content] of Object.entries(spec.files)) this.write(`${packDir}/${rel}`, content);
    const { files, roles, ...fields } = spec;
    const manifest = buildManifest(this.abs(packDir), {
      id: dir,
      sourceId: 'local-docs',
      title: `Guide to ${dir}`,
      packageVersion: '1.0.0',
      revision: 'r1',
      language: 'typescript',
      trust: 'community',
      primary: 'DOC.md',
      ...fields,
      files: Object.keys(files).map((p) => ({ path: p, ...(roles?.[p] ? { role: roles[p] } : {}) })),
    });
    this.write(`${packDir}/pack.json`, JSON.stringify(manifest, null, 2));
    return packDir;
  }

  /** Rewrites a pack's manifest through `edit` (to break it on purpose). */
  editManifest(dir: string, edit: (manifest: Record<string, unknown>) => unknown): void {
    const rel = `${REGISTRY}/${dir}/pack.json`;
    this.write(rel, JSON.stringify(edit(JSON.parse(this.read(rel)) as Record<string, unknown>)));
  }

  /** Declares files in a pack's manifest with the given hashes (and a consistent contentHash). */
  declareFiles(dir: string, declared: Record<string, string>, replace = false): void {
    this.editManifest(dir, (m) => {
      const kept = replace ? [] : (m.files as Array<{ path: string; sha256: string }>).filter((f) => !(f.path in declared));
      const files = [...kept, ...Object.entries(declared).map(([p, sha256]) => ({ path: p, sha256 }))];
      return { ...m, files, contentHash: computeContentHash(files) };
    });
  }

  registry(options: Partial<RegistryOptions> = {}): ContextRegistry {
    return new ContextRegistry({ root: this.root, cacheDir: this.cacheDir, ...options });
  }

  cleanup(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }
}

export function codes(diagnostics: readonly RegistryDiagnostic[]): string[] {
  return [...new Set(diagnostics.map((d) => d.code))].sort();
}

export function diagnosticsWith(diagnostics: readonly RegistryDiagnostic[], code: string): RegistryDiagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}
