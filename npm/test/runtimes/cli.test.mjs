// `npx jxray`: the package's bin runs the native jxray (here the one JXRAY_BIN names, handed
// over as JXRAY_BINARY) and forwards its arguments, standard streams, exit status and
// signals; without a binary for the platform it says in one line what to do.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jxrayBinary, repoRoot } from "../helpers.mjs";
import { installedProject } from "./common.mjs";

const project = installedProject();
const shim = join(project, "node_modules", ".bin", "jxray");
const withBinary = { ...process.env, JXRAY_BINARY: jxrayBinary() };

function both(args, input) {
  const direct = spawnSync(jxrayBinary(), args, { input, encoding: "utf8", cwd: repoRoot });
  const through = spawnSync(shim, args, { input, encoding: "utf8", cwd: repoRoot, env: withBinary });
  return { direct, through };
}

test("arguments, output and the exit status pass through", () => {
  const { direct, through } = both(["check", "assets/demo", "--format", "jsonl"]);
  assert.equal(direct.status, 1);
  assert.equal(through.status, direct.status);
  assert.equal(through.stdout, direct.stdout);
  const missing = both(["check", "no/such/folder"]);
  assert.equal(missing.through.status, 2);
  assert.equal(missing.through.stderr, missing.direct.stderr);
});

test("standard input passes through", () => {
  const { direct, through } = both(["check", "-", "--input", "text", "--format", "jsonl"], '```json\n{"a": 1}\n```');
  assert.equal(through.status, 0);
  assert.equal(through.stdout, direct.stdout);
});

test("a signal to the shim reaches jxray, and the shim ends as jxray does", async () => {
  const ends = async (command, env) => {
    const folder = mkdtempSync(join(tmpdir(), "jxray-cli-signal-"));
    const child = spawn(command, ["record", "--port", "0", "--to", join(folder, "captures")], { env, stdio: ["ignore", "pipe", "pipe"] });
    await new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk) => String(chunk).includes("listening on") && resolve());
      child.on("exit", () => reject(new Error("jxray record ended before it listened")));
    });
    child.kill("SIGTERM");
    return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  };
  const direct = await ends(jxrayBinary(), process.env);
  const through = await ends(shim, withBinary);
  assert.deepEqual(through, direct);
});

test("a SIGINT to the shim alone reaches jxray, which stops as it does without the shim", async () => {
  const folder = mkdtempSync(join(tmpdir(), "jxray-cli-signal-"));
  // A process group of its own: no terminal shares the signal with jxray.
  const child = spawn(shim, ["record", "--port", "0", "--to", join(folder, "captures")], { env: withBinary, stdio: ["ignore", "pipe", "pipe"], detached: true });
  await new Promise((resolve) => child.stdout.on("data", (chunk) => String(chunk).includes("listening on") && resolve()));
  child.kill("SIGINT");
  const ended = await new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  assert.deepEqual(ended, { code: 130, signal: null });
});

/** Runs ARGV on a new terminal (a pty, through Python's pty module): relays what it prints,
 * types Ctrl-C when told `INTR` on stdin, and ends with `EXIT status`. */
const ON_A_TERMINAL = `
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[1], sys.argv[1:], os.environ)
reading = True
while True:
    ready, _, _ = select.select([fd] + ([0] if reading else []), [], [])
    if 0 in ready:
        line = sys.stdin.readline()
        if line.strip() == "INTR":
            os.write(fd, b"\x03")
        reading = bool(line)
    if fd in ready:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
print("EXIT", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
`;

/** An OpenAI-compatible upstream that streams the first chunk of its answer at once and
 * the rest after `delayMs`. */
async function slowUpstream(delayMs) {
  const chunk = (content, finish) =>
    `data: ${JSON.stringify({ object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(chunk('{"a": ', null));
    setTimeout(() => response.end(`${chunk("1}", "stop")}data: [DONE]\n\n`), delayMs);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** \`jxray record\` run by \`command\` on a terminal, six calls in flight, then Ctrl-C typed:
 * how many captures it kept. */
async function ctrlCWithCallsInFlight(command, env) {
  const upstream = await slowUpstream(1500);
  const folder = mkdtempSync(join(tmpdir(), "jxray-cli-ctrl-c-"));
  const captures = join(folder, "captures");
  const argv = [command, "record", "--port", "0", "--to", captures, "--upstream", `slow=http://127.0.0.1:${upstream.address().port}/v1`];
  const terminal = spawn("python3", ["-c", ON_A_TERMINAL, ...argv], { env, stdio: ["pipe", "pipe", "inherit"] });
  let printed = "";
  const listening = new Promise((resolve) =>
    terminal.stdout.on("data", (chunk) => {
      printed += chunk;
      const port = /listening on (?:http:\/\/)?127\.0\.0\.1:(\d+)/.exec(printed)?.[1];
      if (port) resolve(port);
    }),
  );
  const ended = new Promise((resolve) => terminal.on("exit", resolve));
  const port = await listening;
  const calls = Array.from({ length: 6 }, () =>
    fetch(`http://127.0.0.1:${port}/slow/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"model": "m", "stream": true, "messages": []}' }).then((r) => r.text()).catch(() => null),
  );
  await new Promise((resolve) => setTimeout(resolve, 400));
  terminal.stdin.write("INTR\n");
  await Promise.all(calls);
  await ended;
  terminal.stdin.end();
  upstream.close();
  const files = readdirSync(captures, { recursive: true }).map(String);
  const kept = files.filter((name) => /\.(json|sse)$/.test(name) && !name.endsWith(".request.json") && !name.split("/").pop().startsWith("."));
  return { kept: kept.length, printed };
}

test("Ctrl-C on a terminal keeps every capture in flight, through the shim as without it", async () => {
  const direct = await ctrlCWithCallsInFlight(jxrayBinary(), process.env);
  assert.equal(direct.kept, 6, direct.printed);
  const through = await ctrlCWithCallsInFlight(shim, withBinary);
  assert.equal(through.kept, 6, through.printed);
  assert.match(through.printed, /EXIT 130/);
});

test("without a binary for the platform, one line says what to do", () => {
  const env = { ...process.env };
  delete env.JXRAY_BINARY;
  const run = spawnSync(shim, ["--version"], { encoding: "utf8", env });
  assert.equal(run.status, 2);
  const lines = run.stderr.trim().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], /^jxray: @jxray\/cli-linux-x64-gnu is not installed .*npm install @jxray\/cli-linux-x64-gnu.*JXRAY_BINARY/);
});
