// jxray/testing for CommonJS test files (bundled into dist/testing.cjs).

const { readFileSync } = require("node:fs");
const path = require("node:path");
const { createJxray } = require("./core.js");
const { makeTesting } = require("./testing-core.js");

const jxray = createJxray(new WebAssembly.Module(readFileSync(path.join(__dirname, "jxray.wasm"))));

module.exports = makeTesting(jxray);
