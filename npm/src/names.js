// A usage mistake in an option's or a key's name is a TypeError naming it, the names there
// are, and the one it was probably meant to be (`max_tokens` → `maxTokens`).

/**
 * Throw a TypeError for the first key of `object` not in `names` (an array); `what` names
 * one key (`option`, `budget key`) and `plural` all of them.
 */
export function checkNames(object, names, what, plural) {
  for (const name of Object.keys(object)) {
    if (names.includes(name)) continue;
    const near = closest(name, names);
    const hint = near === null ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
    throw new TypeError(`jxray: unknown ${what} ${JSON.stringify(name)}${hint}; the ${plural} are ${names.join(", ")}`);
  }
}

/** The name `name` is a slip of: the same but for case, `_` and `-`, or at most two
 * edits from one (a third of its length for short names); null when none is near. */
export function closest(name, names) {
  const plain = fold(name);
  let best = null;
  let bestDistance = Infinity;
  for (const candidate of names) {
    const distance = editDistance(plain, fold(candidate));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const allowed = Math.min(2, Math.floor(plain.length / 3));
  return bestDistance <= allowed ? best : null;
}

function fold(name) {
  return name.toLowerCase().replace(/[-_]/g, "");
}

/** Levenshtein distance. */
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}
