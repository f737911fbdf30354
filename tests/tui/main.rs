//! The workbench: the app's state and update, its screens drawn on a test backend at
//! several sizes, the loader and watcher, and the real binary under tmux.
//!
//! One test binary, one module a former test file: it links the crate once.

#[path = "../support/mod.rs"]
mod support;

mod big;
mod bytes;
mod checks;
mod groups;
mod layouts;
mod loader;
mod record;
mod recording;
mod save;
mod screens;
mod timeline;
mod tmux;
mod tmux_record;
mod tmux_triage;
mod update;
mod watch;
mod watch_coalesce;
mod watch_live;
mod workbench;
