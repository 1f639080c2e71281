// Guidance packs from the context registry that are relevant to a task: metadata only (entry
// mode is an explicit fetch), so registry content never slips into a pack unasked.
import type { ContextRegistry } from '../registry';
import type { GuidanceEntry } from './types';

/** A guidance lookup for buildPack: the registry's best entries for the task, above a minimal score. */
export function registryGuidance(registry: Pick<ContextRegistry, 'search'>, limit = 3): (task: string) => Promise<GuidanceEntry[]> {
  return async (task) => {
    const r = await registry.search(task, { limit });
    return r.results
      .filter((hit) => hit.score > 0)
      .map((hit) => ({ id: hit.id, title: hit.title, score: hit.score, trust: hit.trust }));
  };
}
