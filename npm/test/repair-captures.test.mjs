// repair(…, { captures }): each attempt written as a capture and its request file, in the chain
// format the Rust readers read (docs/repair.md); files never replaced, a failed write a
// warning, cancellation writing nothing more, the browser entry refusing at once, and
// `jxray check` reading the folder.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { tmpdir } from "node:os";
import { createJxray, repair } from "jxray";
import { openChain, place } from "../src/captures.js";
import { nodeFiles } from "../src/node-files.js";
import { runJxray } from "./helpers.mjs";

const BROKEN = { text: '{"ticketId": "T-1", "severity": "high",}', stopReason: "stop", model: "gpt-4o-mini", usage: { prompt_tokens: 12, completion_tokens: 9 } };
const GOOD = { text: '{"ticketId": "T-1", "severity": "high"}', stopReason: "stop", model: "gpt-4o-mini-2024-07-18", usage: { prompt_tokens: 40, completion_tokens: 8 } };
const STEM = /^(\d{2}-\d{2}-\d{2}\.\d{3})-(.+)-([0-9a-f]{8})-a(\d+)$/;
const STARTED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

const made = [];
after(() => made.forEach((one) => fs.rmSync(one, { recursive: true, force: true })));

function folder() {
  made.push(fs.mkdtempSync(path.join(tmpdir(), "jxray-captures-")));
  return made.at(-1);
}

/** A generate that answers from a script and keeps the prompts it was sent. */
function scripted(...replies) {
  const prompts = [];
  const generate = async (prompt) => {
    prompts.push(prompt);
    const reply = replies[prompts.length - 1];
    if (reply instanceof Error) throw reply;
    return reply;
  };
  return { generate, prompts };
}

/** The captures and request files under `root` (relative, sorted); nothing else, and no
 * temporary file left behind. */
function written(root) {
  const files = fs.readdirSync(root, { recursive: true }).map(String).filter((name) => fs.statSync(path.join(root, name)).isFile()).sort();
  const captures = files.filter((name) => name.endsWith(".jsonl"));
  const requests = files.filter((name) => name.endsWith(".request.json"));
  assert.equal(captures.length + requests.length, files.length, files.join(", "));
  return { captures, requests };
}

/** The capture's one line and its request file, parsed. */
function readAttempt(root, relative) {
  const raw = fs.readFileSync(path.join(root, relative), "utf8");
  assert.ok(raw.endsWith("\n") && raw.indexOf("\n") === raw.length - 1, raw);
  const request = fs.readFileSync(path.join(root, relative.replace(/\.jsonl$/, ".request.json")), "utf8");
  assert.ok(!request.includes("\n"), "the request file is one compact object");
  return { line: JSON.parse(raw), request: JSON.parse(request) };
}

test("a repaired loop leaves two attempts of one chain", async () => {
  const root = folder();
  const { generate, prompts } = scripted(BROKEN, GOOD);
  const result = await repair(generate, "Triage this ticket as JSON.", { captures: root });
  assert.equal(result.status, "success");
  assert.equal(result.repaired, true);
  const { captures, requests } = written(root);
  assert.equal(captures.length, 2);
  assert.equal(requests.length, 2);
  assert.match(result.chain, /^[0-9a-f]{16}$/);
  const [first, second] = result.attempts;
  assert.deepEqual([first.model, second.model], ["gpt-4o-mini", "gpt-4o-mini-2024-07-18"]);
  assert.deepEqual(captures, [first.capture, second.capture].map((p) => p.split("/").join(path.sep)).sort());
  for (const [attempt, prompt, reply] of [[first, prompts[0], BROKEN], [second, prompts[1], GOOD]]) {
    const [day, name] = attempt.capture.split("/");
    assert.match(day, /^\d{4}-\d{2}-\d{2}$/);
    const [, time, model, chain8, number] = STEM.exec(name.slice(0, -".jsonl".length));
    assert.deepEqual([model, chain8, Number(number)], [reply.model, result.chain.slice(0, 8), attempt.attempt]);
    const { line, request } = readAttempt(root, attempt.capture);
    assert.deepEqual(line, { output: reply.text, stop_reason: "stop" });
    assert.equal(request.jxray_request, 1);
    assert.equal(request.source, "jxray repair (typescript)");
    assert.equal(request.model, reply.model);
    assert.match(request.started, STARTED);
    assert.equal(request.started.slice(0, 10), day);
    assert.equal(request.started.slice(11, 23), time.replaceAll("-", ":"));
    assert.ok(Number.isInteger(request.duration_ms) && request.duration_ms >= 0);
    assert.equal(request.stop_reason, "stop");
    assert.deepEqual(request.usage, reply.usage);
    assert.deepEqual(request.body, { messages: [{ role: "user", content: prompt }] });
    assert.equal(request.chain.id, result.chain);
    assert.equal(request.chain.attempt, attempt.attempt);
  }
  assert.deepEqual(readAttempt(root, first.capture).request.chain, { id: result.chain, attempt: 1 });
  assert.equal(readAttempt(root, second.capture).request.chain.re_ask_of, first.capture);
  assert.ok(prompts[1].startsWith("Triage this ticket as JSON.\n\nYour last reply "));
});

test("without captures there is no chain and no capture", async () => {
  const result = await repair(scripted(BROKEN, GOOD).generate, "p");
  assert.equal(result.chain, undefined);
  assert.deepEqual(result.attempts.map((a) => a.capture), [undefined, undefined]);
  assert.deepEqual(result.attempts.map((a) => a.model), ["gpt-4o-mini", "gpt-4o-mini-2024-07-18"]);
});

test("a truncated first reply writes its one attempt, named for the loop without a model", async () => {
  const root = folder();
  const result = await repair(scripted({ text: '{"ticketId": "T-1", "sev', finishReason: "length" }).generate, "p", { captures: root });
  assert.equal(result.stopped, "raise-limit");
  const { captures, requests } = written(root);
  assert.equal(captures.length, 1);
  assert.equal(requests.length, 1);
  const { line, request } = readAttempt(root, result.attempts[0].capture);
  assert.deepEqual(line, { output: '{"ticketId": "T-1", "sev', stop_reason: "length" });
  assert.deepEqual(request.chain, { id: result.chain, attempt: 1 });
  assert.equal(request.model, null);
  assert.equal(request.usage, null);
  assert.match(captures[0], /-repair-[0-9a-f]{8}-a1\.jsonl$/);
});

test("an attempt whose generate rejects writes nothing", async () => {
  const root = folder();
  await assert.rejects(repair(scripted(new Error("503")).generate, "p", { captures: root }), /503/);
  assert.deepEqual(written(root), { captures: [], requests: [] });
  await assert.rejects(repair(scripted(BROKEN, new Error("503")).generate, "p", { captures: root }), /503/);
  const { captures, requests } = written(root);
  assert.equal(captures.length, 1);
  assert.equal(requests.length, 1);
  assert.match(captures[0], /-a1\.jsonl$/);
});

/** What `place` writes with: the file system, and temporary names that never repeat. */
let temporary = 0;
const host = { fs, path, randomHex: () => String(++temporary).padStart(8, "0") };
/** The core's rules, across the wasm boundary, as the loop's writer reads them. */
const core = createJxray(new WebAssembly.Module(fs.readFileSync(new URL("../dist/jxray.wasm", import.meta.url))));
const next = core.nextStem;
const GOLDEN = new URL("../../crates/jxray-formats/tests/snapshots/recorded/", import.meta.url);
const goldenRecords = () => JSON.parse(fs.readFileSync(new URL("attempts.json", GOLDEN), "utf8"));

test("an attempt's files are the golden files byte for byte", () => {
  // The same bytes the Rust core and the Python package write (crates/jxray-formats/tests/recorded_files.rs).
  const names = [];
  for (const record of goldenRecords()) {
    const made = core.attemptFiles(JSON.stringify(record));
    assert.equal(made.day, "2026-12-02");
    for (const [ending, text] of made.files) {
      names.push(made.stem + ending);
      assert.deepEqual(Buffer.from(text, "utf8"), fs.readFileSync(new URL(made.stem + ending, GOLDEN)), made.stem + ending);
    }
  }
  assert.equal(names.length, 4);
});

test("the loop gives the core the attempt it judged", async () => {
  const [first] = goldenRecords();
  const chain = await openChain(folder(), nodeFiles, first.schema, core);
  chain.id = first.chain;
  const attempt = { attempt: 1, prompt: first.prompt, text: first.text, stopReason: "stop", usage: first.usage, latencyMs: 812.2, model: first.model };
  const record = JSON.parse(chain.record(attempt, new Date(2026, 11, 2, 7, 50, 1, 123)));
  const offset = 0 - new Date(2026, 11, 2, 7, 50, 1, 123).getTimezoneOffset();
  assert.deepEqual(record, { ...first, source: "jxray repair (typescript)", re_ask_of: null, started: { ...first.started, offset_minutes: offset } });
  assert.equal(JSON.parse(chain.record({ ...attempt, text: "a\ud800b" }, new Date())).text, "a\ufffdb", "a lone surrogate is replaced");
});

test("a taken name is never replaced: the next free stem holds both files", () => {
  const root = folder();
  const files = [[".request.json", "{}"], [".jsonl", "mine\n"]];
  fs.writeFileSync(path.join(root, "s.jsonl"), "theirs\n");
  assert.equal(place(host, root, "s", files, next), "s-2");
  assert.equal(fs.readFileSync(path.join(root, "s.jsonl"), "utf8"), "theirs\n");
  assert.ok(!fs.existsSync(path.join(root, "s.request.json")), "a stem's files are kept together");
  assert.equal(fs.readFileSync(path.join(root, "s-2.request.json"), "utf8"), "{}");
  assert.equal(fs.readFileSync(path.join(root, "s-2.jsonl"), "utf8"), "mine\n");
  fs.writeFileSync(path.join(root, "t.request.json"), "theirs");
  assert.equal(place(host, root, "t", files, next), "t-2");
  assert.equal(place(host, root, "t", files, next), "t-3");
  assert.equal(fs.readFileSync(path.join(root, "t.request.json"), "utf8"), "theirs");
  assert.deepEqual(fs.readdirSync(root).filter((name) => name.startsWith(".")), [], "no temporary file is left");
});

test("a name taken between the look and the link is not replaced", () => {
  const root = folder();
  const racing = {
    ...fs,
    linkSync(from, to) {
      if (to.endsWith(`${path.sep}r.jsonl`)) fs.writeFileSync(to, "racer\n");
      fs.linkSync(from, to);
    },
  };
  assert.equal(place({ ...host, fs: racing }, root, "r", [[".request.json", "{}"], [".jsonl", "mine\n"]], next), "r-2");
  assert.equal(fs.readFileSync(path.join(root, "r.jsonl"), "utf8"), "racer\n");
  assert.deepEqual(fs.readdirSync(root).sort(), ["r-2.jsonl", "r-2.request.json", "r.jsonl"]);
});

/** Today's date folder's name, as the loop names it. */
function today() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

test("a folder that cannot be written warns and the loop goes on", async () => {
  const root = folder();
  const blocked = path.join(root, today());
  // The first call plants a file where the date folder goes: every write fails, after the
  // loop began.
  const { generate } = scripted(BROKEN, GOOD);
  const planting = async (prompt) => {
    if (!fs.existsSync(blocked)) fs.writeFileSync(blocked, "a file where the folder should be");
    return generate(prompt);
  };
  const warnings = [];
  const listen = (warning) => warnings.push(warning);
  process.on("warning", listen);
  try {
    const result = await repair(planting, "p", { captures: root });
    assert.equal(result.status, "success");
    assert.equal(result.repaired, true);
    assert.deepEqual(result.attempts.map((a) => a.capture), [undefined, undefined]);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", listen);
  }
  const ours = warnings.filter((w) => w.name === "JxrayWarning");
  assert.equal(ours.length, 2);
  for (const warning of ours) {
    assert.ok(!warning.message.includes("\n"));
    assert.ok(warning.message.includes(blocked), warning.message);
    assert.match(warning.message, /\.jsonl was not written: .*(ENOTDIR|EEXIST|not a folder)/);
  }
});

test("a date folder planted as a symlink is refused before the first call", async () => {
  const root = folder();
  const outside = folder();
  fs.symlinkSync(outside, path.join(root, today()));
  const { generate, prompts } = scripted(BROKEN, GOOD);
  await assert.rejects(repair(generate, "p", { captures: root }), /is not a folder \(a symlink planted there is refused\); nothing written/);
  assert.equal(prompts.length, 0, "no call was paid for");
  assert.deepEqual(fs.readdirSync(outside), []);
});

test("a captures path that is a file is refused before the first call", async () => {
  const file = path.join(folder(), "not-a-folder");
  fs.writeFileSync(file, "a file where the folder should be");
  const { generate, prompts } = scripted(BROKEN, GOOD);
  await assert.rejects(repair(generate, "p", { captures: file }), /captures: .*not-a-folder/);
  assert.equal(prompts.length, 0);
});

test("a date folder swapped for a symlink during the loop is not followed: a warning", async () => {
  const root = folder();
  const outside = folder();
  const { generate } = scripted(BROKEN, GOOD);
  const swapping = async (prompt) => {
    const day = path.join(root, today());
    fs.rmSync(day, { recursive: true, force: true });
    fs.symlinkSync(outside, day);
    return generate(prompt);
  };
  const warnings = [];
  const listen = (warning) => warnings.push(warning);
  process.on("warning", listen);
  try {
    const result = await repair(swapping, "p", { captures: root });
    assert.equal(result.status, "success");
    assert.deepEqual(result.attempts.map((a) => a.capture), [undefined, undefined]);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("warning", listen);
  }
  assert.deepEqual(fs.readdirSync(outside), [], "nothing lands outside the captures folder");
  assert.equal(warnings.filter((w) => w.name === "JxrayWarning" && /symlink planted there is refused/.test(w.message)).length, 2);
});

test("an abort stops the loop: a reply that comes back after it is not written", async () => {
  const root = folder();
  const controller = new AbortController();
  const calls = [];
  const generate = async (prompt) => {
    calls.push(prompt);
    if (calls.length === 2) controller.abort();
    return calls.length === 1 ? BROKEN : GOOD;
  };
  await assert.rejects(repair(generate, "p", { captures: root, signal: controller.signal, fallback: {} }), { name: "AbortError" });
  assert.equal(calls.length, 2);
  const { captures, requests } = written(root);
  assert.equal(captures.length, 1);
  assert.equal(requests.length, 1);
  assert.match(captures[0], /-a1\.jsonl$/);
});

test("captures must be a path", async () => {
  await assert.rejects(repair(scripted(GOOD).generate, "p", { captures: 3 }), { name: "TypeError", message: /captures must be a folder's path/ });
});

test("the browser entry refuses captures before the first call", async () => {
  const realFetch = globalThis.fetch;
  // The browser entry fetches its module from beside it; here, from the disk.
  globalThis.fetch = async (url) => new Response(fs.readFileSync(url), { headers: { "content-type": "application/wasm" } });
  let browser;
  try {
    browser = await import("../src/browser.js");
  } finally {
    globalThis.fetch = realFetch;
  }
  const { generate, prompts } = scripted(GOOD);
  await assert.rejects(browser.repair(generate, "p", { captures: folder() }), {
    name: "TypeError",
    message: /captures needs a file system \(Node, Bun or Deno\)/,
  });
  assert.equal(prompts.length, 0);
  assert.equal((await browser.repair(generate, "p")).status, "success", "without captures it runs");
});

/** The records `jxray check FOLDER --format jsonl` prints. */
function checked(root) {
  const run = runJxray(["check", root, "--format", "jsonl"]);
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return run.stdout.trim().split("\n").map((line) => JSON.parse(line));
}

test("jxray check reads each attempt as its capture", async () => {
  const root = folder();
  const result = await repair(scripted(BROKEN, GOOD).generate, "p", { captures: root });
  const records = new Map(checked(root).map((record) => [record.source, record]));
  const [first, second] = result.attempts.map((a) => records.get(`${path.join(root, a.capture)}:1`));
  assert.deepEqual([first.ok, first.failure.kind, first.failure.defect], [false, "invalid", "trailing-comma"]);
  assert.deepEqual([second.ok, second.layer, second.value], [true, "direct", { ticketId: "T-1", severity: "high" }]);
  assert.equal(first.stop_reason, "stop");
});

test("jxray check lists the two captures and no request file", async () => {
  // The request files beside `.jsonl` captures are requests, not captures (the Rust readers
  // learn `.jsonl` beside `.request.json` with the chains).
  const root = folder();
  await repair(scripted(BROKEN, GOOD).generate, "p", { captures: root });
  const sources = checked(root).map((record) => record.source);
  assert.deepEqual(sources.map((source) => source.endsWith(".jsonl:1")), [true, true], sources.join(", "));
});

test("the loop's schema is in each request file, so check judges the attempts as the loop did", async () => {
  const { z } = await import("zod");
  const Triage = z.object({ ticketId: z.string(), severity: z.string() });
  const root = folder();
  const missing = { text: '{"ticketId": "T-1"}', stopReason: "stop", model: "m" };
  const result = await repair(scripted(missing, GOOD).generate, "p", { schema: Triage, captures: root });
  assert.deepEqual([result.status, result.repaired], ["success", true]);
  const { request } = readAttempt(root, result.attempts[0].capture);
  assert.deepEqual(request.body.response_format.json_schema.schema.required, ["ticketId", "severity"]);
  const records = checked(root);
  assert.deepEqual(records.map((record) => record.failure?.kind ?? null), ["schema", null]);
});
