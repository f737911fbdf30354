//! Binary-side glue: one module per command.

pub mod tui;
