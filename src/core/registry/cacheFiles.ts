// The registry's cache files: JSON in the caller's cache folder, validated on load (anything
// unreadable, corrupt or from another schema is simply absent, so the caller rebuilds), written
// atomically so a crash or a concurrent writer never leaves half a file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { readRegularSync } from '../fsRead';
import { writeFileAtomic } from '../store/atomic';
import { diagnostic, errorText, type RegistryDiagnostic } from './diagnostics';

export function readCacheFile<S extends z.ZodTypeAny>(file: string, schema: S): z.infer<S> | undefined {
  let text: string;
  try {
    text = readRegularSync(file, { followLinks: true }).toString('utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as z.infer<S>) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a cache file; a failure is a warning, since answers can still come from the sources. */
export function writeCacheFile(file: string, value: unknown): RegistryDiagnostic | undefined {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, `${JSON.stringify(value)}\n`);
    return undefined;
  } catch (error) {
    return diagnostic('cache-unwritable', 'warning', `cannot write the registry cache ${file}: ${errorText(error)}`);
  }
}
