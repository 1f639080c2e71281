// One engine per evaluated variant over the scratch tree, for both evaluations (history and
// tasks). Variants that chunk alike share one index store, which the first of them refreshes;
// the others only rank differently over it.
import { Engine } from '../core/engine/engine';
import type { DiscoveryOptions } from '../core/discovery';
import type { EngineOptions, RefreshOptions, RefreshReport } from '../core/api';
import type { ScratchTree } from './scratch';
import { storeKey, type EvalVariant } from './variants';

export interface VariantEngine {
  variant: EvalVariant;
  engine: Engine;
}

/** Variants that chunk alike: one index store, refreshed by the first of them. */
export interface StoreGroup {
  name: string;
  engines: VariantEngine[];
}

/** The scratch tree is not a repository: discovery walks it (honouring its .gitignore files). */
export const EVAL_DISCOVERY: Partial<DiscoveryOptions> = { useGit: false };

export type EvalEngineOptions = Pick<EngineOptions, 'grammarsDir' | 'workerScript' | 'workers' | 'ripgrepPath'>;

/** The engines of `variants` (variantsToRun) over `scratch`'s tree, grouped by store. */
export function variantEngines(variants: readonly EvalVariant[], scratch: ScratchTree, engine: EvalEngineOptions, storePrefix = ''): Map<string, StoreGroup> {
  const groups = new Map<string, StoreGroup>();
  for (const variant of variants) {
    const key = storeKey(variant);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { name: variant.name, engines: [] }));
    group.engines.push({
      variant,
      engine: new Engine({
        ...engine,
        root: scratch.tree,
        storeDir: scratch.storeDir(`${storePrefix}${groups.size}-${group.name}`),
        discovery: EVAL_DISCOVERY,
        policy: variant.policy,
        strategy: variant.strategy,
        ranking: variant.ranking,
        fieldParams: variant.fieldParams,
      }),
    });
  }
  return groups;
}

/** Refreshes each group's store (through its first engine), keyed by group name. */
export async function refreshGroups(groups: ReadonlyMap<string, StoreGroup>, options: RefreshOptions): Promise<Map<string, RefreshReport>> {
  const reports = new Map<string, RefreshReport>();
  for (const group of groups.values()) {
    const first = group.engines[0];
    if (first) reports.set(group.name, await first.engine.refresh(options));
  }
  return reports;
}

export async function closeAll(groups: ReadonlyMap<string, StoreGroup>): Promise<void> {
  await Promise.all([...groups.values()].flatMap((g) => g.engines.map((e) => e.engine.close())));
}
