// The type declarations, checked by the TypeScript compiler on code that uses them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

test("the declarations type-check code that uses the package (tsc --strict)", () => {
  const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
  const usage = fileURLToPath(new URL("./types/usage.ts", import.meta.url));
  const run = spawnSync(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--lib", "es2022,dom", "--moduleResolution", "nodenext", "--skipLibCheck", usage],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
});
