// The file system a repair loop's `captures` are written with, in Node, Bun and Deno: loaded
// the first time a loop is given `captures`, and named only by these runtimes' entries, so a
// browser or workerd bundle never meets `node:fs`.

/** `{ fs, path, crypto }`: node:fs, node:path and Web Crypto. */
export async function nodeFiles() {
  const [fs, path] = await Promise.all([import("node:fs"), import("node:path")]);
  const crypto = globalThis.crypto ?? (await import("node:crypto")).webcrypto;
  return { fs, path, crypto };
}
