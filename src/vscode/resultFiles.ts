// The Results view's files, from a search's ranked hits. Plain data (unit-testable without VS
// Code). The order is the engine's ranking as the search pick, `cairn search` and the MCP
// `search` tool show it: a file comes where its best hit comes. The view never asks for another
// ranking (files ranked as files order differently), so moving a search from the pick into the
// view never reorders what the user just saw.
import type { SearchHit } from '../core/api';
import type { FolderHit } from './services';

export interface FileNode {
  type: 'file';
  folder: string;
  folderUri: string;
  path: string;
  /** The file's hits in line order. */
  hits: Array<FolderHit<SearchHit>>;
  /** 0 for the file of the best hit, and so on. */
  rank: number;
}

/** Groups ranked hits by file: files in the order of their best hit, each file's hits in line order. */
export function groupByFile(hits: ReadonlyArray<FolderHit<SearchHit>>): FileNode[] {
  const files = new Map<string, FileNode>();
  for (const hit of hits) {
    const key = `${hit.folderUri}\n${hit.path}`;
    let node = files.get(key);
    if (!node) files.set(key, (node = { type: 'file', folder: hit.folder, folderUri: hit.folderUri, path: hit.path, hits: [], rank: files.size }));
    node.hits.push(hit);
  }
  for (const f of files.values()) f.hits.sort((a, b) => a.startLine - b.startLine);
  return [...files.values()];
}
