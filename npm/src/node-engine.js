// The one engine of Node, Bun and Deno (ESM): the module read from beside this file.

import { readFileSync } from "node:fs";
import { createJxray } from "./core.js";
import { nodeFiles } from "./node-files.js";

export const jxray = createJxray(new WebAssembly.Module(readFileSync(new URL("../dist/jxray.wasm", import.meta.url))), {
  files: nodeFiles,
});
