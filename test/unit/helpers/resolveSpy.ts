// Which files an import graph resolves specifiers for while `run` runs: how tests tell a graph
// updated from the one before from a graph built again.
import { ImportGraph } from '../../../src/core/pack/graph';

/** The file of every specifier resolved during `run`, in order, one entry per specifier. */
export async function filesResolvedDuring(run: () => unknown): Promise<string[]> {
  const asked: string[] = [];
  const resolve = ImportGraph.prototype.resolve;
  ImportGraph.prototype.resolve = function (this: ImportGraph, from: string, spec: string) {
    asked.push(from);
    return resolve.call(this, from, spec);
  };
  try {
    await run();
  } finally {
    ImportGraph.prototype.resolve = resolve;
  }
  return asked;
}
