//! Repair chains: the attempts of one logical request — an output, the re-ask that quotes
//! it, the re-ask's answer — linked through the `chain` member of their request files.
//!
//! ```json
//! "chain": {"id": "5f1c0a7e93d2b864", "attempt": 2, "re_ask_of": "2026-12-02/07-50-01.123-gpt-4o-a1.jsonl"}
//! ```
//!
//! `re_ask_of` names the previous attempt's capture relative to the capture folder (the
//! folder that holds the date folders). The repair loops of the Python and TypeScript
//! packages write every attempt with its link (`captures=`); `jxray record` links a request
//! that re-asks an output it recorded (`commands::record`'s linker), whose first attempt
//! was written before anyone knew it would be re-asked, so it carries no link itself.
//!
//! The link's format is the file contract's (`jxray_formats::recorded::ChainLink`), read
//! with the request file (`capture::RequestBeside`); [`assemble`] puts attempts in order,
//! the check report counts them (`report::RepairChains`) and the workbench shows and walks
//! them.

pub(crate) mod assemble;

pub(crate) use assemble::assemble;
pub(crate) use jxray_formats::recorded::{ChainLink, ChainState};
