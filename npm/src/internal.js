// What the package's own entries share and users do not: the engine behind the Node entry,
// for jxray/testing (a registered symbol, so the bundles agree on it).

export const ENGINE = Symbol.for("jxray.engine");
