// The CommonJS entries for Node's `require`: the ESM sources bundled into dist/, beside
// jxray.wasm. Run by scripts/build-npm.sh.

import { build } from "esbuild";

const common = { bundle: true, format: "cjs", platform: "node", target: "node18", logLevel: "warning" };
await build({ ...common, entryPoints: ["src/index.cjs"], outfile: "dist/index.cjs" });
await build({ ...common, entryPoints: ["src/testing.cjs"], outfile: "dist/testing.cjs" });
