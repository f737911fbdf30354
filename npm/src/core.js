// The engine behind every entry point: WebAssembly instances of the module, lent one per
// call. The runtime-specific entries (node.js, browser.js, workerd.js) only find the module
// and hand it here.

import { Engine } from "./engine.js";
import { makeRepair } from "./repair.js";
import { DEFAULT_REQUEST } from "./request.js";
import { makeStreams } from "./stream.js";

const decoder = new TextDecoder();

/**
 * The API over a compiled `WebAssembly.Module`. `host` is what the runtime lends the package
 * beyond the module: the Node, Bun and Deno entries give `files` (see node-files.js), which
 * the repair loop's `captures` write with.
 */
export function createJxray(module, host = {}) {
  const pool = new Pool(module);
  const jxray = {
    extract: (text, options) => pool.extract(text, options),
    extractResponse: (response, options) => pool.extractResponse(response, options),
    /** The tokens a reply's usage says it used (the repair loop's budget and spans). */
    tokenUsage: (usage) => pool.usage(usage),
    /** A repair attempt's files and the next candidate stem (the `captures` writer's rules). */
    attemptFiles: (record) => pool.run((engine) => engine.attemptFiles(record)),
    nextStem: (stem, number) => pool.run((engine) => engine.nextStem(stem, number)),
    /** The verdict on a fixture file's text (jxray/testing); `unreadable` says why the
     * file was not read, for a one-line error naming it. */
    replayFixture: (text, unreadable, source) =>
      pool.run((engine) => JSON.parse(decoder.decode(engine.call("jx_fixture", DEFAULT_REQUEST.with({ source, unreadable }), text)))),
  };
  jxray.repair = makeRepair(jxray, pool, host).repair;
  Object.assign(jxray, makeStreams(jxray, pool));
  return jxray;
}

/** Past this size, an instance's memory (which never shrinks) is dropped after the call for
 * a fresh instance: one big input does not keep its memory for the life of the process. */
const RESET_BYTES = 64 << 20;

/**
 * The instances of one module. Each call runs in one that no call is running in: a schema's
 * check that calls `extract` again (inside the engine's call) gets an instance of its own,
 * made the first time it is needed, instead of entering the busy one.
 */
class Pool {
  constructor(module) {
    this.module = module;
    this.engines = [new Engine(module, this)];
  }

  run(work) {
    const engine = this.engines.find((one) => !one.busy) ?? this.#add();
    try {
      return work(engine);
    } finally {
      if (!engine.busy && engine.memoryBytes() > RESET_BYTES) engine.start();
    }
  }

  #add() {
    this.engines.push(new Engine(this.module, this));
    return this.engines.at(-1);
  }

  extract(text, options) {
    return this.run((engine) => engine.extract(text, options));
  }

  extractResponse(response, options) {
    return this.run((engine) => engine.extractResponse(response, options));
  }

  explain(text, request) {
    return this.run((engine) => engine.explain(text, request));
  }

  decide(text, request) {
    return this.run((engine) => engine.decide(text, request));
  }

  usage(usage) {
    return this.run((engine) => engine.usage(usage));
  }

  attempt(text, options, more) {
    return this.run((engine) => engine.attempt(text, options, more));
  }

  attemptResponse(response, options, more) {
    return this.run((engine) => engine.attemptResponse(response, options, more));
  }

  runStart(prompt, limits, repairTable) {
    return this.run((engine) => engine.runStart(prompt, limits, repairTable));
  }

  runMayCall(run, elapsedMs) {
    return this.run((engine) => engine.runMayCall(run, elapsedMs));
  }

  runEnd(run, fallbackKind, schemaVersion) {
    return this.run((engine) => engine.runEnd(run, fallbackKind, schemaVersion));
  }

  /** The largest memory of any instance, in bytes (the package's tests read it). */
  memoryBytes() {
    return Math.max(...this.engines.map((engine) => engine.memoryBytes()));
  }
}
