// Node's CommonJS entry (bundled into dist/index.cjs by scripts/bundle.mjs): the module is
// read from beside the bundle.

const { readFileSync } = require("node:fs");
const path = require("node:path");
const api = require("./api.js");
const { nodeFiles } = require("./node-files.js");

const jxray = api.createJxray(new WebAssembly.Module(readFileSync(path.join(__dirname, "jxray.wasm"))), { files: nodeFiles });

module.exports = { ...api, extract: jxray.extract, extractResponse: jxray.extractResponse, repair: jxray.repair };
