// The package as it is packed: the files package.json lists, copied to a staging folder, and
// package.json with the platform packages (platforms.json) as optional dependencies at the
// package's version. They are not in the working package.json: they are published with each
// release, so `npm ci` here could not resolve them. Run by scripts/build-npm.sh.
//
//   node scripts/stage.mjs STAGING_FOLDER

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The files a `files` entry names: a path, or a `*` in its last part. */
function matching(pattern) {
  if (!pattern.includes("*")) {
    if (!existsSync(pattern)) throw new Error(`${pattern}, which package.json lists, is missing; build the package first`);
    return [pattern];
  }
  const folder = dirname(pattern);
  const name = pattern.slice(folder.length + 1);
  const regex = new RegExp(`^${name.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return readdirSync(folder)
    .filter((file) => regex.test(file))
    .map((file) => join(folder, file));
}

const [folder] = process.argv.slice(2);
if (!folder) throw new Error("usage: node scripts/stage.mjs STAGING_FOLDER");
const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const platforms = JSON.parse(readFileSync("platforms.json", "utf8"));
manifest.optionalDependencies = Object.fromEntries(Object.values(platforms).map((name) => [name, manifest.version]));
delete manifest.devDependencies;
delete manifest.scripts;
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const pattern of manifest.files) {
  for (const file of matching(pattern)) {
    mkdirSync(join(folder, dirname(file)), { recursive: true });
    cpSync(file, join(folder, file));
  }
}
writeFileSync(join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
