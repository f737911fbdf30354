// Integers beyond 2^53 kept exact, on request (`bigints: true`): the value is parsed by
// JSON.parse, then each integer the engine listed (crates/jxray-wasm/src/bigints.rs) is put
// at its place as a `bigint`.

/** Put each exact integer the engine listed at its place. */
export function withBigInts(value, bigints) {
  if (!bigints || bigints.length === 0) return value;
  let root = value;
  for (const { path, digits } of bigints) {
    const exact = BigInt(digits);
    if (path.length === 0) {
      root = exact;
      continue;
    }
    let parent = root;
    for (const step of path.slice(0, -1)) parent = parent[step];
    parent[path[path.length - 1]] = exact;
  }
  return root;
}

