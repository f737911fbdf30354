// jxray/testing for Node (bundled into dist/testing.cjs; the ESM entry, testing.js, wraps
// it): over the engine of dist/index.cjs, the one `require("jxray")` and `import` give.

const main = require("./index.cjs");
const { ENGINE } = require("./internal.js");
const { makeTesting } = require("./testing-core.js");

module.exports = makeTesting(main[ENGINE]);
