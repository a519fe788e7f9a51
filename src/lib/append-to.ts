/**
 * Appends `value` to the list `map` holds under `key` (a new list for a new key), in place: grouping
 * n values costs O(n), where `map.set(key, [...(map.get(key) ?? []), value])` costs O(n²).
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
