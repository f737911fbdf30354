//! The root crate's library as the front ends call it: the capture readers (files,
//! envelopes, logs, streams), the conformance cases through the capture loader, and
//! fixtures saved and replayed.
//!
//! One test binary, one module a former test file: it links the crate once.

#[path = "../support/mod.rs"]
mod support;

mod capture_demo;
mod capture_envelopes;
mod capture_fields;
mod capture_inspect_limits;
mod capture_jsonl;
mod capture_logs;
mod capture_logs_deep;
mod capture_logs_limits;
mod capture_logs_wal;
mod capture_reasoning;
mod capture_streams;
mod capture_unreadable;
mod capture_walk;
mod conformance;
mod exact_numbers;
mod fixture_replay;
mod fixture_save;
mod recorded_files;
mod serving_layer;
mod stream_schema;
mod versions;
