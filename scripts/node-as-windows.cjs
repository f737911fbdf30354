// For scripts/dist-smoke.sh only: Node on Linux playing Node on Windows, so that the
// `jxray` package's bin (npm/bin/jxray.cjs) picks the win32 platform package's jxray.exe
// as it would on Windows; that executable is then run under Wine. Loaded with
// `node --require` before the bin.
"use strict";

const childProcess = require("node:child_process");

Object.defineProperty(process, "platform", { value: "win32" });
const spawn = childProcess.spawn;
childProcess.spawn = (file, args, options) =>
  file.endsWith(".exe") ? spawn("wine", [file, ...args], options) : spawn(file, args, options);
