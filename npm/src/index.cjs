// Node's one implementation of the package (bundled into dist/index.cjs by
// scripts/bundle.mjs): `require("jxray")` loads it, and so does `import` through the thin
// ESM entry (node.js), so a process has one engine and one set of classes whichever way it
// loads jxray (`instanceof` holds across them). The module is read from beside the bundle.

const { readFileSync } = require("node:fs");
const path = require("node:path");
const api = require("./api.js");
const { nodeFiles } = require("./node-files.js");
const { ENGINE } = require("./internal.js");

const jxray = api.createJxray(new WebAssembly.Module(readFileSync(path.join(__dirname, "jxray.wasm"))), { files: nodeFiles });

module.exports = {
  ...api,
  extract: jxray.extract,
  extractResponse: jxray.extractResponse,
  repair: jxray.repair,
  createExtractor: jxray.createExtractor,
  partialValues: jxray.partialValues,
};
// jxray/testing reaches the same engine through it (not enumerable: not API).
Object.defineProperty(module.exports, ENGINE, { value: jxray });
