// Finding the packs of a local registry folder. With an index file, `registry.json`:
//
//   { "schemaVersion": 1, "packs": ["http/fetch-user", "db/migrations"] }
//
// exactly the listed folders are packs. Without one, every folder holding a pack.json is a pack
// (searched to MAX_DEPTH, not inside packs, not into hidden or symlinked folders).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { compareCodeUnits } from '../discovery/paths';
import { readRegular } from '../fsRead';
import { diagnostic, errorText, type RegistryDiagnostic } from './diagnostics';
import { MANIFEST_FILE, PRIMARY_NAMES, schemaProblems } from './manifest';
import { checkManifestPath, resolveInside } from './paths';

export const INDEX_FILE = 'registry.json';
const MAX_DEPTH = 8;
const MAX_PACKS = 5000;

const indexSchema = z.object({ schemaVersion: z.literal(1), packs: z.array(z.string()).max(MAX_PACKS) }).strict();

export interface PackLocation {
  /** POSIX path of the pack folder relative to the registry folder ('' for the folder itself). */
  dir: string;
  /** Its real path. */
  real: string;
}

export interface Located {
  packs: PackLocation[];
  diagnostics: RegistryDiagnostic[];
}

/** `show` turns an absolute path into the form diagnostics use. */
export async function locatePacks(registryReal: string, show: (absolute: string) => string): Promise<Located> {
  const indexPath = path.join(registryReal, INDEX_FILE);
  let indexText: string | undefined;
  try {
    // Not blocking: a FIFO named registry.json is refused, not waited on.
    indexText = (await readRegular(indexPath, { followLinks: true })).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return { packs: [], diagnostics: [diagnostic('unreadable', 'error', `cannot read the registry index: ${errorText(error)}`, { path: show(indexPath) })] };
    }
  }
  return indexText === undefined ? scanForPacks(registryReal, show) : packsFromIndex(registryReal, indexText, show(indexPath));
}

async function packsFromIndex(registryReal: string, text: string, shownIndex: string): Promise<Located> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { packs: [], diagnostics: [diagnostic('invalid-index', 'error', `not JSON: ${errorText(error)}`, { path: shownIndex })] };
  }
  const parsed = indexSchema.safeParse(json);
  if (!parsed.success) {
    return { packs: [], diagnostics: schemaProblems(parsed.error, 'invalid-index').map((p) => diagnostic(p.code, 'error', p.message, { path: shownIndex })) };
  }
  const packs: PackLocation[] = [];
  const diagnostics: RegistryDiagnostic[] = [];
  for (const dir of new Set(parsed.data.packs)) {
    const check = checkManifestPath(dir);
    if (!check.ok) {
      diagnostics.push(diagnostic(check.code === 'path-traversal' ? 'path-traversal' : 'invalid-index', 'error', `packs: ${check.message}`, { path: shownIndex }));
      continue;
    }
    const resolved = await resolveInside(registryReal, dir);
    if (!resolved.ok) {
      diagnostics.push(diagnostic(resolved.code, 'error', `pack folder ${resolved.message}`, { path: shownIndex }));
      continue;
    }
    packs.push({ dir, real: resolved.real });
  }
  return { packs, diagnostics };
}

async function scanForPacks(registryReal: string, show: (absolute: string) => string): Promise<Located> {
  const packs: PackLocation[] = [];
  const diagnostics: RegistryDiagnostic[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const absolute = dir === '' ? registryReal : path.join(registryReal, ...dir.split('/'));
    let names;
    try {
      names = await fsp.readdir(absolute, { withFileTypes: true });
    } catch (error) {
      diagnostics.push(diagnostic('unreadable', 'error', `cannot list ${show(absolute)}: ${errorText(error)}`, { path: show(absolute) }));
      return;
    }
    if (names.some((d) => d.name === MANIFEST_FILE)) {
      if (packs.length < MAX_PACKS) packs.push({ dir, real: absolute });
      return;
    }
    const orphan = names.find((d) => PRIMARY_NAMES.includes(d.name));
    if (orphan) {
      const shown = show(path.join(absolute, MANIFEST_FILE));
      diagnostics.push(diagnostic('missing-file', 'warning', `${show(absolute)} has a ${orphan.name} but no ${MANIFEST_FILE}; it is not served`, { path: shown }));
    }
    if (depth >= MAX_DEPTH) return;
    for (const d of names.sort((a, b) => compareCodeUnits(a.name, b.name))) {
      if (d.name.startsWith('.')) continue;
      const child = dir === '' ? d.name : `${dir}/${d.name}`;
      if (d.isSymbolicLink()) {
        const target = await fsp.stat(path.join(absolute, d.name)).catch(() => undefined);
        if (target?.isDirectory()) {
          diagnostics.push(diagnostic('symlink-skipped', 'info', `${child} is a symlinked folder; packs are not looked for through symlinks`, { path: show(path.join(absolute, d.name)) }));
        }
      } else if (d.isDirectory()) {
        await visit(child, depth + 1);
      }
    }
  };
  await visit('', 0);
  return { packs, diagnostics };
}
