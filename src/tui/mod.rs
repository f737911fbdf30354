//! The triage workbench: `jxray [PATH]`.
//!
//! Data flows one way: the loader reads captures and runs the engine in the
//! background, results arrive as [`Action`]s, [`update`] changes the
//! [`App`], and [`ui::render`] draws it. Keys come from one table
//! ([`keys`]) that also writes the footer and the help.

pub mod action;
pub mod app;
pub(crate) mod builder;
pub(crate) mod detail;
pub(crate) mod doc;
pub(crate) mod editor;
pub mod event;
pub mod help;
pub mod highlight;
pub(crate) mod ids;
pub mod keys;
pub mod layout;
pub mod loader;
pub(crate) mod pacer;
pub(crate) mod partial_line;
pub mod recording;
pub(crate) mod request;
pub(crate) mod rows;
pub(crate) mod runner;
pub(crate) mod sanitize;
pub mod search;
pub(crate) mod terminal;
pub mod theme;
pub(crate) mod timeline;
pub mod ui;

pub use action::{Action, Command, Effect};
pub use app::{update, App, Checks, TuiSettings};
pub(crate) use runner::{run, SessionSummary};
