// `Engine.exportChunks`: every live chunk of a view with its metadata and current text.
import type { IndexStore, Snapshot } from '../store/store';
import type { ExportedChunk } from '../api';
import { viewReader, type View } from './view';

/** File by file, in path order; text comes from the working tree, `stale` marks files changed since indexing. */
export function* exportView(root: string, store: IndexStore, view: View): Generator<ExportedChunk> {
  const { segments } = view.snapshot;
  for (const filePath of view.locator.paths().sort()) {
    // One reader per file: it keeps what it read, and an export goes through every file once.
    const reader = viewReader(root, store, view);
    for (const ref of view.locator.chunksOf(filePath)) {
      const seg = segments[ref.seg] as Snapshot['segments'][number];
      const hit = reader.hit(seg, ref.doc, 0, undefined);
      const rec = seg.record(ref.doc);
      yield {
        docid: hit.docid,
        id: hit.id,
        path: hit.path,
        startLine: hit.startLine,
        endLine: hit.endLine,
        language: hit.language,
        kind: hit.kind,
        symbol: hit.symbol,
        context: hit.context,
        ...(rec.signature ? { signature: rec.signature } : {}),
        ...(hit.context.length > hit.symbol.length && hit.symbol && hit.context.endsWith(hit.symbol) ? { parent: hit.context.slice(0, hit.context.length - hit.symbol.length).replace(/(\.|::|#| > )$/, '') } : {}),
        // The chunk's own text: its characters when it shares its lines (a minified line holds
        // thousands of chunks, and printing the line for each was gigabytes), else its lines.
        text: reader.chunkText(seg, ref.doc) ?? '',
        ...(hit.stale ? { stale: true } : {}),
      };
    }
  }
}
