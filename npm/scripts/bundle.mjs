// The CommonJS entries for Node's `require`: the ESM sources bundled into dist/, beside
// jxray.wasm. Run by scripts/build-npm.sh.

import { build } from "esbuild";

// The OpenTelemetry API stays an optional peer: required at run time when installed.
const common = { bundle: true, format: "cjs", platform: "node", target: "node18", logLevel: "warning", external: ["@opentelemetry/api"] };
await build({ ...common, entryPoints: ["src/index.cjs"], outfile: "dist/index.cjs" });
// jxray/testing uses the main bundle's engine: `./index.cjs` stays a require of dist/index.cjs.
await build({ ...common, entryPoints: ["src/testing.cjs"], outfile: "dist/testing.cjs", external: [...common.external, "./index.cjs"] });
