//! Helpers shared by the integration tests, one module a kind: `cli` runs the real binary,
//! `tui` drives the app and draws its screens, `capture` writes and loads capture files,
//! `cases` reads the conformance cases.
//! Each test uses part of them.

#![allow(dead_code, unused_imports)]

pub mod capture;
pub mod cases;
pub mod chains;
pub mod chromium;
pub mod cli;
pub mod streams;
pub mod triage;
pub mod tui;
