// The TypeScript examples in README.md, npm/README.md and docs/*.md compile with
// `tsc --strict` against the package's declarations, as written. Each ```ts block is its own
// module; the names an example takes from the page around it (your schema, your client, the
// reply you got) are declared ahead of it with the types the page means, and the jxray names
// it uses without importing them (a block that continues the one above) are imported, so
// that what is checked is the example's own code.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const npm = fileURLToPath(new URL("../", import.meta.url));

const PAGES = ["README.md", "npm/README.md", ...readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

// What the pages mean by the names their examples leave to the reader.
const CONTEXT = {
  completion: 'declare const completion: import("openai").OpenAI.ChatCompletion;',
  Invoice: 'declare const Invoice: import("zod").ZodType<{ total: number; currency: string }>;',
  Triage: 'declare const Triage: import("zod").ZodType<{ ticketId: string; severity: "low" | "high" }>;',
  openai: 'declare const openai: import("openai").OpenAI;',
  model: 'declare const model: import("ai").LanguageModel;',
  generate: 'declare function generate(prompt: string): Promise<string>;',
  prompt: "declare const prompt: string;",
  text: "declare const text: string;",
  reply: "declare const reply: string;",
  cut: "declare const cut: string;",
  finishReason: "declare const finishReason: string | null;",
  stopReason: "declare const stopReason: string | null;",
  save: "declare function save(value: unknown): void;",
  use: "declare function use(value: unknown): void;",
  render: "declare function render(value: unknown): void;",
  count: "declare function count(layer: string): void;",
  metrics: "declare const metrics: { increment(name: string): void };",
  retryWithMoreTokens: "declare function retryWithMoreTokens(): Promise<unknown>;",
};
const JXRAY = ["extract", "extractResponse", "repair", "repairPrompt", "createExtractor", "partialValues",
  "TruncatedError", "NoJsonError", "InvalidJsonError", "SchemaError", "UnreadableError", "ExtractError"];
const OTHERS = { streamText: "ai", z: "zod" };

/** Every ```ts block of the pages, with where it is. */
function examples() {
  const found = [];
  for (const page of PAGES) {
    const text = readFileSync(join(root, page), "utf8");
    for (const match of text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ where: `${page}:${line}`, code: match[1] });
    }
  }
  return found;
}

const defines = (code, name) =>
  new RegExp(`\\b(?:const|let|var|function|class)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(code);
const uses = (code, name) => new RegExp(`(?<![.\\w])${name}\\b`).test(code);

/** The block as a module: its context declared, then the block as written. */
function module(code) {
  const head = [];
  const fromJxray = JXRAY.filter((name) => uses(code, name) && !defines(code, name));
  if (fromJxray.length > 0) head.push(`import { ${fromJxray.join(", ")} } from "jxray";`);
  for (const [name, from] of Object.entries(OTHERS)) {
    if (uses(code, name) && !defines(code, name)) head.push(`import { ${name} } from "${from}";`);
  }
  for (const [name, declaration] of Object.entries(CONTEXT)) {
    if (uses(code, name) && !defines(code, name)) head.push(declaration);
  }
  return `${head.join("\n")}\n${code}\nexport {};\n`;
}

test("the TypeScript examples in README.md and docs/ compile under tsc --strict", () => {
  const blocks = examples();
  assert.ok(blocks.length >= 10, `only ${blocks.length} examples found`);
  // Inside the package, so that `jxray` resolves to it and the SDKs to node_modules.
  const folder = mkdtempSync(join(npm, ".docs-types-"));
  try {
    // vitest's `test`, as the testing example calls it (vitest itself is not installed here).
    const vitest = join(folder, "vitest.d.ts");
    writeFileSync(vitest, 'declare module "vitest" {\n  export function test(name: string, body: () => unknown): void;\n}\n');
    const files = blocks.map((block, index) => {
      const file = join(folder, `example-${index}.ts`);
      writeFileSync(file, `// ${block.where}\n${module(block.code)}`);
      return file;
    });
    const tsc = join(npm, "node_modules/typescript/bin/tsc");
    const run = spawnSync(
      process.execPath,
      [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--lib", "es2022,dom",
        "--moduleResolution", "nodenext", "--skipLibCheck", vitest, ...files],
      { encoding: "utf8" },
    );
    // Each error named by the page and line of its example.
    const said = (run.stdout + run.stderr).replace(/[^\s]*example-(\d+)\.ts\((\d+),(\d+)\)/g, (_, index, line) => {
      const block = blocks[Number(index)];
      const [page, start] = block.where.split(":");
      const offset = module(block.code).split("\n").indexOf(block.code.split("\n")[0]);
      return `${page}:${Number(start) + Number(line) - offset - 1}`;
    });
    assert.equal(run.status, 0, said);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
