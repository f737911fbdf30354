// `jxray record --stop-on runaway` with the official openai npm package: a local upstream
// streams a value, then white space until 6 KB or until its reader goes away. Through the
// proxy the package reads a length stop within 1 KB after the runaway's bound, raises
// nothing, and the upstream sees its request dropped; a good answer arrives whole.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import OpenAI from "openai";
import { jxrayBinary } from "./helpers.mjs";

const VALUE = '{"a": 1,';
const SPACES = " ".repeat(64);
const GOOD = ['{"city": ', '"Paris"}'];

function event(content, finish = null) {
  const delta = content === null ? {} : { content };
  return `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** An upstream that notes, per request, whether its reader went away before the end. */
async function upstream() {
  const seen = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const piece of request) body += piece;
    const kind = JSON.parse(body).messages.at(-1).content;
    const pieces = kind === "runaway" ? [VALUE, ...Array(96).fill(SPACES)] : GOOD;
    const note = { kind, hungUp: false };
    seen.push(note);
    response.on("close", () => { note.hungUp = !response.writableFinished; });
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const piece of [...pieces.map((p) => event(p)), event(null, "stop"), "data: [DONE]\n\n"]) {
      if (response.destroyed) return;
      response.write(piece);
      await sleep(4);
    }
    response.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, seen, port: server.address().port };
}

test("stop-on ends a runaway stream as a length stop the openai package reads without raising", async () => {
  const up = await upstream();
  const captures = mkdtempSync(join(tmpdir(), "jxray-stop-on-"));
  const proxy = spawn(jxrayBinary(), ["record", "--port", "0", "--to", captures, "--stop-on", "runaway",
    "--upstream", `openai=http://127.0.0.1:${up.port}/openai`], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    let baseURL;
    for await (const line of createInterface({ input: proxy.stdout })) {
      const found = line.match(/export OPENAI_BASE_URL=(\S+)/);
      if (found) { baseURL = found[1]; break; }
    }
    assert.ok(baseURL, "jxray record says where to point the SDK");
    const client = new OpenAI({ baseURL, apiKey: "sk-e2e", maxRetries: 0 });
    const read = async (kind) => {
      const stream = await client.chat.completions.create({ model: "m", stream: true,
        messages: [{ role: "user", content: kind }] });
      let content = "", finish = null;
      for await (const chunk of stream) {
        content += chunk.choices[0]?.delta?.content ?? "";
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      return { content, finish };
    };
    const runaway = await read("runaway");
    assert.equal(runaway.finish, "length");
    assert.ok(runaway.content.startsWith(VALUE));
    assert.ok(runaway.content.length <= VALUE.length + 512 + 1024, `${runaway.content.length} bytes`);
    for (let i = 0; i < 100 && !up.seen[0]?.hungUp; i += 1) await sleep(20);
    assert.equal(up.seen[0].hungUp, true, "the upstream saw its request dropped");
    const good = await read("good");
    assert.deepEqual(good, { content: GOOD.join(""), finish: "stop" });
  } finally {
    proxy.kill();
    up.server.close();
  }
});
