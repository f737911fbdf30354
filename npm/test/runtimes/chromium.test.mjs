// The packed package in a real headless Chromium (Debian's), through a page that imports
// it as a browser would (an import map to the package's browser entry), served on loopback.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { ANSWERS, assertAnswers, installedProject } from "./common.mjs";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

test("chromium runs the installed package in a page", async () => {
  const dir = installedProject();
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><meta charset="utf-8"><title>jxray</title>
<script type="importmap">{"imports": {"jxray": "/node_modules/jxray/src/browser.js"}}</script>
<pre id="out">pending</pre>
<script type="module">
import { extract } from "jxray";
document.getElementById("out").textContent = JSON.stringify(${ANSWERS});
</script>`,
  );
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname)).replace(/^\/+/, "");
    try {
      const body = readFileSync(join(dir, path || "index.html"));
      response.writeHead(200, { "content-type": TYPES[extname(path || ".html")] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const profile = mkdtempSync(join(tmpdir(), "jxray-chromium-"));
  try {
    const { stdout } = await promisify(execFile)(
      "/usr/bin/chromium",
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--virtual-time-budget=10000",
        "--dump-dom",
        `http://127.0.0.1:${server.address().port}/index.html`,
      ],
      { encoding: "utf8", timeout: 60000 },
    );
    const match = stdout.match(/<pre id="out">([\s\S]*?)<\/pre>/);
    assert.ok(match, stdout);
    const text = match[1].replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    assert.notEqual(text, "pending", "the page's module never ran");
    assertAnswers(JSON.parse(text));
  } finally {
    server.close();
  }
});
