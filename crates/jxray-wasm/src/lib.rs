//! The engine for JavaScript runtimes: Node, Bun, Deno, browsers and edge workers load one
//! WebAssembly module, built from this crate, through the npm package in `npm/`.
//!
//! The boundary is written by hand and kept small (no generated glue, so the package's own
//! JavaScript is the only loader and it runs unchanged everywhere). The host asks for an
//! input buffer ([`boundary::jx_input`]), writes the request into it (the options as JSON,
//! then the text or the response body), calls one entry with the two lengths, and reads the
//! reply from [`boundary::jx_output`]. The entries: [`reply::quick`] (the value, or only
//! that extraction failed), [`reply::explained`] (everything `jxray check --format jsonl`
//! says, with the trace), [`response::outcomes`] (a provider response's outputs) and
//! [`fixture::replay`] (a fixture file's verdict, for a JavaScript test runner) and
//! [`repair::decide`] (the repair loop's decision and request), [`repair::step`] (its
//! run's other steps), [`boundary::jx_usage`] (the tokens a reply's usage says it used, in
//! any provider's spelling), [`captures`] (a repair attempt's files and names, `jx_attempt`
//! and `jx_next_stem`), and [`stream`]
//! (the streaming extractor, one per instance).
//!
//! A schema from the host (a Standard Schema validator such as zod or valibot) is asked
//! through one imported function ([`host`]); its issues become the same `schema` failure a
//! JSON Schema gives in the CLI ([`jxray_formats::violation`]).

pub mod bigints;
pub mod boundary;
pub mod captures;
pub mod fixture;
mod host;
pub mod repair;
pub mod reply;
pub mod request;
pub mod response;
pub mod stream;
pub mod validator;

/// The module's allocator (single-threaded, growing the memory as it needs): smaller than
/// the default one, no slower.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
