// A repair loop's attempts written as a chain of captures (`repair(…, { captures })`): each
// attempt is FOLDER/YYYY-MM-DD/HH-MM-SS.mmm-MODEL-CHAIN8-aN.jsonl (one {"output",
// "stop_reason"} line, which every jxray reader takes) with its request file beside it
// (….request.json: the chain, the attempt, the capture it re-asks), the format `jxray check`
// and the workbench read as a chain — the same files Python's loop writes (docs/repair.md).
//
// Files appear whole or not at all and never replace one that is there: each is written to a
// hidden temporary file, then hard-linked to its name, which fails when the name is taken.
// The file system is the host's (`files`, given by the Node, Bun and Deno entries only).

// Hidden, and what the readers and the watcher pass over (jxray_formats::recorded).
const TEMP_PREFIX = ".jxray-tmp-";
const REQUEST_SUFFIX = ".request.json";
const CAPTURE_SUFFIX = ".jsonl";
const SOURCE = "jxray repair (typescript)";

/**
 * A new chain under `folder`; `files` resolves to the host's `{ fs, path, crypto }` (absent
 * in browsers and workerd, where `captures` is a TypeError before any call).
 */
export async function openChain(folder, files, schema = null) {
  if (typeof folder !== "string" || folder === "") {
    throw new TypeError("jxray: captures must be a folder's path, as a string");
  }
  if (typeof files !== "function") {
    throw new TypeError("jxray: captures needs a file system (Node, Bun or Deno); this runtime has none");
  }
  const chain = new Chain(folder, await files(), schema);
  chain.check(new Date());
  return chain;
}

class Chain {
  constructor(folder, { fs, path, crypto }, schema) {
    this.folder = folder;
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
    const day = localDay(started);
    let stem = `${localClock(started, "-")}-${modelLabel(attempt.model)}-${this.id.slice(0, 8)}-a${attempt.attempt}`;
    const folder = this.path.join(this.folder, day);
    try {
      stem = place(this, this.dayFolder(day, true), stem, this.files(attempt, started));
    } catch (error) {
      warn(`jxray: the capture ${this.path.join(folder, stem + CAPTURE_SUFFIX)} was not written: ${oneLine(error)}`);
      // The next attempt re-asks a capture that is not there: it names none.
      this.previous = null;
      return undefined;
    }
    this.previous = `${day}/${stem}${CAPTURE_SUFFIX}`;
    return this.previous;
  }

  /** The request file, then the capture: a reader that finds a capture finds its request. */
  files(attempt, started) {
    const chain = { id: this.id, attempt: attempt.attempt };
    if (attempt.attempt > 1 && this.previous !== null) chain.re_ask_of = this.previous;
    const request = {
      jxray_request: 1,
      source: SOURCE,
      model: attempt.model ?? null,
      started: localIso(started),
      duration_ms: Math.round(attempt.latencyMs),
      stop_reason: attempt.stopReason ?? null,
      usage: usageJson(attempt.usage),
      body: this.body(attempt.prompt),
      chain,
    };
    const capture = { output: attempt.text, stop_reason: attempt.stopReason ?? null };
    return [
      [REQUEST_SUFFIX, JSON.stringify(request)],
      [CAPTURE_SUFFIX, `${JSON.stringify(capture)}\n`],
    ];
  }

  /** The request's body: the prompt sent, and the schema as a JSON response format. */
  body(prompt) {
    const body = { messages: [{ role: "user", content: prompt }] };
    if (this.schema) body.response_format = { type: "json_schema", json_schema: { name: "schema", schema: this.schema } };
    return body;
  }

  randomHex(bytes) {
    const random = this.crypto.getRandomValues(new Uint8Array(bytes));
    return Array.from(random, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }
}

/**
 * Write each `[suffix, text]` of `files` as STEM + suffix in `folder`, in order, under the
 * first of `stem`, `stem-2`, `stem-3`, … where every name is free. Returns the stem used;
 * nothing that was there is replaced. `host` has the chain's `fs`, `path` and `randomHex`.
 */
export function place(host, folder, stem, files) {
  for (let number = 1; ; number++) {
    const candidate = number === 1 ? stem : `${stem}-${number}`;
    const names = files.map(([suffix]) => host.path.join(folder, candidate + suffix));
    if (names.some((name) => exists(host.fs, name))) continue;
    if (linkAll(host, folder, names, files)) return candidate;
  }
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

/** The model as a file name's part: safe characters only, at most 64; `repair` when the
 * reply did not name one. */
export function modelLabel(model) {
  return model ? model.replace(/[^A-Za-z0-9._-]/gu, "-").slice(0, 64) : "repair";
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

function localClock(date, separator) {
  const parts = [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => pad(part));
  return `${parts.join(separator)}.${pad(date.getMilliseconds(), 3)}`;
}

/** `2026-12-02T07:50:01.123+01:00`: local time with its offset from UTC. */
function localIso(date) {
  const east = -date.getTimezoneOffset();
  const offset = `${east < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(east) / 60))}:${pad(Math.abs(east) % 60)}`;
  return `${localDay(date)}T${localClock(date, ":")}${offset}`;
}

function oneLine(error) {
  return String(error?.message ?? error).replace(/\s+/g, " ");
}

function warn(message) {
  if (typeof globalThis.process?.emitWarning === "function") globalThis.process.emitWarning(message, "JxrayWarning");
  else console.warn(message);
}
