// Items grouped by a key: one loop for every module that files things under a name.

/**
 * `items` by `keyOf(item)`, each group in the items' order and the groups in the order their
 * first item came; an item whose key is undefined is left out.
 */
export function groupBy<T, K = string>(items: Iterable<T>, keyOf: (item: T) => K | undefined): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
