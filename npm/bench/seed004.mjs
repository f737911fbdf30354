// The extractor of seed 004 ("When Your AI Returns Markdown and Your TypeScript App Expected
// JSON"), as the article writes it, in JavaScript: stop reason first, then a direct parse,
// fenced blocks (with the unterminated-final-fence branch), then a string-aware brace walk,
// each parsed with V8's JSON.parse. The comparison point for bench/speed.mjs only.

export function extractJson(text, stopReason) {
  if (stopReason === "max_tokens") return { ok: false, reason: "truncated" };
  const direct = tryParse(text.trim());
  if (direct.ok) return { ok: true, value: direct.value, how: "direct" };
  for (const block of fencedBlocks(text)) {
    const parsed = tryParse(block);
    if (parsed.ok) return { ok: true, value: parsed.value, how: "fenced" };
  }
  const scanned = scanBalanced(text);
  if (scanned) {
    const parsed = tryParse(scanned);
    if (parsed.ok) return { ok: true, value: parsed.value, how: "scanned" };
  }
  return { ok: false, reason: "no-json" };
}

function tryParse(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function* fencedBlocks(text) {
  const re = /```(?:json|JSON)?\s*\n([\s\S]*?)\n```/g;
  for (const m of text.matchAll(re)) yield m[1];
  const last = text.lastIndexOf("```");
  if (last !== -1 && (text.match(/```/g)?.length ?? 0) % 2 === 1) {
    yield text.slice(last + 3).replace(/^(?:json|JSON)?\s*\n/, "");
  }
}

function scanBalanced(text) {
  const start = text.search(/[[{]/);
  if (start === -1) return null;
  const open = text[start];
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  let inStr = false;
  let esc = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (esc) {
      esc = false;
      continue;
    }
    if (c === "\\") {
      esc = true;
      continue;
    }
    if (c === '"') {
      inStr = !inStr;
      continue;
    }
    if (inStr) continue;
    if (c === open) depth++;
    else if (c === close && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}
