//! The npm package (npm/, the engine in WebAssembly from crates/jxray-wasm) as part of
//! `cargo test`: scripts/npm-tests.sh builds and packs it, then runs its node:test suite
//! against this build's jxray binary (the conformance fixtures, a property test against
//! `jxray check`, zod and valibot, the official openai and anthropic SDKs against a real
//! mock server, the `ai` package's generateText) and loads the packed tarball in Node (ESM
//! and CommonJS), Bun, Deno, headless Chromium and workerd.

mod support;

#[test]
fn the_npm_packages_tests_pass_against_this_jxray() {
    let stdout = support::cli::script_passes(
        "npm-tests.sh",
        "it needs Node.js with npm, Debian's rustc-web, rust-web-src and chromium, and the npm registry the first time",
    );
    let count = |name: &str| -> usize {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(&format!("ℹ {name} ")))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `{name}` count in the summary:\n{stdout}"))
    };
    assert_eq!(count("fail"), 0, "{stdout}");
    assert_eq!(count("skipped"), 0, "{stdout}");
    assert_eq!(count("todo"), 0, "{stdout}");
    assert!(count("pass") >= 200, "{stdout}");
}
