// Temporary workspaces for engine tests: write a tree of files, open an engine on it.
import type { EngineOptions } from '../../../src/core/api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Engine } from '../../../src/core/engine/engine';

/** The repo's grammars/ folder (populated by scripts/copy-grammars.mjs before tests). */
export const GRAMMARS_DIR = path.resolve(__dirname, '../../../../grammars');

export class TempWorkspace {
  readonly root: string;
  readonly storeDir: string;
  private readonly engines: Engine[] = [];

  constructor(files: Record<string, string> = {}) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ws-'));
    this.root = path.join(base, 'root');
    this.storeDir = path.join(base, 'store');
    fs.mkdirSync(this.root);
    for (const [p, text] of Object.entries(files)) this.write(p, text);
  }

  write(rel: string, text: string | Uint8Array): void {
    const abs = path.join(this.root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    // Make the change visible to mtime-based detection even within one clock tick.
    const t = new Date(Date.now() + Math.floor(Math.random() * 1000) + 1000);
    fs.utimesSync(abs, t, t);
  }

  remove(rel: string): void {
    fs.rmSync(path.join(this.root, rel), { force: true, recursive: true });
  }

  rename(from: string, to: string): void {
    fs.mkdirSync(path.dirname(path.join(this.root, to)), { recursive: true });
    fs.renameSync(path.join(this.root, from), path.join(this.root, to));
  }

  engine(options: Partial<EngineOptions> = {}): Engine {
    const e = new Engine({ root: this.root, storeDir: this.storeDir, grammarsDir: GRAMMARS_DIR, workers: 0, ...options });
    this.engines.push(e);
    return e;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.close()));
    fs.rmSync(path.dirname(this.root), { recursive: true, force: true });
  }
}
