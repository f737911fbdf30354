// The packed package in Cloudflare's workerd runtime (from npm): a worker that imports the
// package's workerd entry, which takes the module as a compiled WebAssembly.Module.

import { test } from "node:test";
import { spawn } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../helpers.mjs";
import { ANSWERS, assertAnswers, installedProject } from "./common.mjs";

const workerd = fileURLToPath(new URL("../../node_modules/.bin/workerd", import.meta.url));

test("workerd runs the installed package in a worker", async () => {
  const dir = installedProject();
  const pkg = "node_modules/jxray";
  writeFileSync(
    join(dir, "worker.js"),
    `import { extract } from "./${pkg}/src/workerd.js";
export default { fetch() { return new Response(JSON.stringify(${ANSWERS})); } };`,
  );
  const modules = readdirSync(join(dir, pkg, "src"))
    .filter((name) => name.endsWith(".js"))
    .map((name) => `(name = "${pkg}/src/${name}", esModule = embed "${pkg}/src/${name}")`);
  modules.push(`(name = "${pkg}/dist/jxray.wasm", wasm = embed "${pkg}/dist/jxray.wasm")`);
  const port = await freePort();
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js"), ${modules.join(", ")}],
  compatibilityDate = "2025-01-01",
);`,
  );
  const server = spawn(workerd, ["serve", "config.capnp"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  server.stdout.on("data", (chunk) => (log += chunk));
  server.stderr.on("data", (chunk) => (log += chunk));
  try {
    let answer;
    for (let i = 0; i < 100 && answer === undefined; i++) {
      try {
        answer = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      } catch {
        await sleep(100);
      }
    }
    if (answer === undefined) throw new Error(`workerd never answered:\n${log}`);
    assertAnswers(JSON.parse(answer));
  } finally {
    server.kill();
  }
});
