// The project's own source tree, for tests that check rules over every module of src/.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository's src/ (tsc compiles this file to out/test/unit/helpers/). */
export const SRC = path.resolve(__dirname, '../../../../src');

/** Files under `dir`, at any depth, whose names `keep` accepts. */
export function sourceFiles(dir: string, keep: (name: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p, keep) : keep(e.name) ? [p] : [];
  });
}
