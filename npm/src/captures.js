// A repair loop's attempts written as a chain of captures (`repair(…, { captures })`): each
// attempt is FOLDER/YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl (one {"output",
// "stop_reason"} line, which every jxray reader takes) with its request file beside it
// (….request.json: the chain, the attempt, the capture it re-asks), the format `jxray check`
// and the workbench read as a chain — the same files Python's loop writes (docs/repair.md).
//
// The names, the bytes and the candidate stems are the core's (crates/jxray-formats/src/
// recorded/, across the wasm boundary: `core.attemptFiles`, `core.nextStem`); this module
// does only the file I/O, which wasm has not. Files appear whole or not at all and never
// replace one that is there: each is written to a hidden temporary file, then hard-linked to
// its name, which fails when the name is taken. The file system is the host's (`files`,
// given by the Node, Bun and Deno entries only).

// Hidden, and what the readers and the watcher pass over (jxray_formats::recorded).
const TEMP_PREFIX = ".jxray-tmp-";
const SOURCE = "jxray repair (typescript)";

/**
 * A new chain under `folder`; `files` resolves to the host's `{ fs, path, crypto }` (absent
 * in browsers and workerd, where `captures` is a TypeError before any call); `core` has the
 * engine's `attemptFiles` and `nextStem`.
 */
export async function openChain(folder, files, schema, core) {
  if (typeof folder !== "string" || folder === "") {
    throw new TypeError("jxray: captures must be a folder's path, as a string");
  }
  if (typeof files !== "function") {
    throw new TypeError("jxray: captures needs a file system (Node, Bun or Deno); this runtime has none");
  }
  const chain = new Chain(folder, await files(), schema, core);
  chain.check(new Date());
  return chain;
}

class Chain {
  constructor(folder, { fs, path, crypto }, schema, core) {
    this.folder = folder;
    this.core = core;
    /** The loop's schema as JSON Schema, written into each request file so `check` and the
     * workbench judge the attempts against it (contract §2). */
    this.schema = schema;
    this.fs = fs;
    this.path = path;
    this.crypto = crypto;
    this.id = this.randomHex(8);
    /** The last attempt's capture, which the next one re-asks. */
    this.previous = null;
  }

  /**
   * Refuse, before the first call, a folder the attempts could not be written in: the
   * captures folder is not one, or today's date folder is a symlink (which would lead every
   * file outside the folder) or not a folder. `jxray record` refuses the same.
   */
  check(date) {
    try {
      this.fs.mkdirSync(this.folder, { recursive: true });
    } catch (error) {
      throw new Error(`jxray: captures: ${this.folder} cannot be made a folder (${oneLine(error)}); nothing written`);
    }
    if (!this.fs.statSync(this.folder).isDirectory()) {
      throw new Error(`jxray: captures: ${this.folder} is not a folder; nothing written`);
    }
    this.dayFolder(localDay(date), false);
  }

  /** The date folder's path, made when `make` and missing; an Error when what is there is a
   * symlink or not a folder (looked at without following a link). */
  dayFolder(day, make) {
    const folder = this.path.join(this.folder, day);
    if (make) this.fs.mkdirSync(folder, { recursive: true });
    let stat = null;
    try {
      stat = this.fs.lstatSync(folder);
    } catch (error) {
      if (error?.code !== "ENOENT") throw error;
    }
    if (stat !== null && !stat.isDirectory()) {
      const what = stat.isSymbolicLink() ? "a symlink planted there is refused" : "something else is there";
      throw new Error(`jxray: captures: ${folder} is not a folder (${what}); nothing written`);
    }
    return folder;
  }

  /**
   * Write one judged attempt (its number, prompt, text, stop reason, usage, model and
   * latency), begun at `started`. Returns the capture's path relative to the folder, or
   * undefined, with a warning, when it could not be written: a full disk must not end the
   * caller's loop.
   */
  write(attempt, started) {
    let made = null;
    try {
      made = this.core.attemptFiles(this.record(attempt, started));
      const stem = place(this, this.dayFolder(made.day, true), made.stem, made.files, this.core.nextStem);
      this.previous = `${made.day}/${stem}${made.files[0][0]}`;
      return this.previous;
    } catch (error) {
      const target = made === null ? `attempt ${attempt.attempt}` : this.path.join(this.folder, made.day, made.stem + made.files[0][0]);
      warn(`jxray: the capture ${target} was not written: ${oneLine(error)}`);
      // The next attempt re-asks a capture that is not there: it names none.
      this.previous = null;
      return undefined;
    }
  }

  /** The attempt as the core's `AttemptRecord` (JSON), which names and words its files. */
  record(attempt, started) {
    const record = {
      source: SOURCE,
      chain: this.id,
      attempt: attempt.attempt,
      re_ask_of: attempt.attempt > 1 ? this.previous : null,
      started: localTime(started),
      duration_ms: Math.max(0, Math.round(attempt.latencyMs)),
      model: typeof attempt.model === "string" ? attempt.model : null,
      prompt: attempt.prompt,
      schema: this.schema || null,
      text: attempt.text,
      stop_reason: attempt.stopReason ?? null,
      usage: usageJson(attempt.usage),
    };
    // A lone surrogate is no Unicode text: the files stay UTF-8 (U+FFFD in its place).
    return JSON.stringify(record, (_, value) => (typeof value === "string" ? wellFormed(value) : value));
  }

  randomHex(bytes) {
    const random = this.crypto.getRandomValues(new Uint8Array(bytes));
    return Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }
}

/**
 * Write each `[suffix, text]` of `files` as STEM + suffix in `folder`, in order, under the
 * first of the candidate stems (`stem`, then `next(stem, 2)`, `next(stem, 3)`, … until it
 * says `null`) where every name is free. Returns the stem used; nothing that was there is
 * replaced. `host` has the chain's `fs`, `path` and `randomHex`.
 */
export function place(host, folder, stem, files, next) {
  for (let number = 1, candidate = stem; candidate !== null; candidate = next(stem, ++number)) {
    const names = files.map(([suffix]) => host.path.join(folder, candidate + suffix));
    if (names.some((name) => exists(host.fs, name))) continue;
    if (linkAll(host, folder, names, files)) return candidate;
  }
  throw new Error(`every name from ${stem} on is taken`);
}

/** Link every file under its name; when one was taken meanwhile, remove the ones this call
 * linked (so a stem's files stay together) and say so. */
function linkAll(host, folder, names, files) {
  const linked = [];
  for (const [index, [, text]] of files.entries()) {
    if (!linkNew(host, folder, names[index], text)) {
      for (const mine of linked) host.fs.unlinkSync(mine);
      return false;
    }
    linked.push(names[index]);
  }
  return true;
}

/** Write `text` to a hidden temporary file, flush it to disk, and hard-link it to `name`;
 * false when `name` exists (the link refuses to replace it). */
function linkNew(host, folder, name, text) {
  const { fs, path } = host;
  const temp = path.join(folder, `${TEMP_PREFIX}${path.basename(name)}.${host.randomHex(4)}`);
  const handle = fs.openSync(temp, "wx", 0o644);
  try {
    try {
      const bytes = new TextEncoder().encode(text);
      for (let at = 0; at < bytes.length; ) at += fs.writeSync(handle, bytes, at);
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    try {
      fs.linkSync(temp, name);
    } catch (error) {
      if (error?.code === "EEXIST") return false;
      throw error;
    }
    return true;
  } finally {
    fs.unlinkSync(temp);
  }
}

function exists(fs, name) {
  try {
    fs.lstatSync(name);
    return true;
  } catch (error) {
    if (error?.code === "ENOENT") return false;
    throw error;
  }
}

/** The usage as a JSON object (an SDK object through its toJSON); null for anything else. */
function usageJson(usage) {
  if (usage === null || typeof usage !== "object") return null;
  try {
    const json = JSON.parse(JSON.stringify(usage));
    return json !== null && typeof json === "object" && !Array.isArray(json) ? json : null;
  } catch {
    return null; // a bigint, a cycle
  }
}

const pad = (number, width = 2) => String(number).padStart(width, "0");

function localDay(date) {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local time the core names files and request files by. */
function localTime(date) {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    millisecond: date.getMilliseconds(),
    offset_minutes: -date.getTimezoneOffset(),
  };
}

function wellFormed(text) {
  return typeof text.toWellFormed === "function" ? text.toWellFormed() : text.replace(/\p{Cs}/gu, "\uFFFD");
}

function oneLine(error) {
  return String(error?.message ?? error).replace(/\s+/g, " ");
}

function warn(message) {
  if (typeof globalThis.process?.emitWarning === "function") globalThis.process.emitWarning(message, "JxrayWarning");
  else console.warn(message);
}
