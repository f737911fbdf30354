// The packed package in Node as an ES module, from a fresh project.

import { test } from "node:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ANSWERS, assertAnswers, installedProject } from "./common.mjs";

test("node (ESM and CommonJS) loads the installed package", () => {
  const dir = installedProject();
  writeFileSync(join(dir, "esm.mjs"), `import { extract } from "jxray";\nconsole.log(JSON.stringify(${ANSWERS}));\n`);
  writeFileSync(join(dir, "cjs.cjs"), `const { extract } = require("jxray");\nconsole.log(JSON.stringify(${ANSWERS}));\n`);
  for (const script of ["esm.mjs", "cjs.cjs"]) {
    assertAnswers(JSON.parse(execFileSync(process.execPath, [script], { cwd: dir, encoding: "utf8" })));
  }
});
