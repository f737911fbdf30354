//! An Inspect `.eval` log's zip, read an entry at a time within bounds: a zip is a list of
//! entries that each say where their bytes are and how large they inflate, and a hostile
//! one says it falsely. So:
//! - entries whose bytes overlap are refused before anything is inflated (a zip bomb
//!   points thousands of entries at one stream: each would inflate it again);
//! - an entry inflates to at most `--max-bytes` (more is that sample's failure);
//! - the whole archive inflates to at most [`INFLATED_PER_MAX_BYTES`] × `--max-bytes`;
//!   past that, what is left is not read, and says so.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use serde_json::Value;
use zip::ZipArchive;

use super::super::disk;

/// How many times `--max-bytes` one archive may inflate to in all.
pub(super) const INFLATED_PER_MAX_BYTES: u64 = 4;

/// A local file header is at least this long before its name and data.
const LOCAL_HEADER: u64 = 30;

/// Why an entry was not read.
#[derive(Debug)]
pub(super) enum Refused {
    /// This entry cannot be read (too large, not JSON): its own failure.
    Entry(String),
    /// The archive inflated as much as it may: nothing more is read from it.
    Spent(String),
}

pub(super) struct Archive {
    zip: ZipArchive<File>,
    max_bytes: u64,
    /// Bytes the archive may still inflate to.
    left: u64,
}

impl Archive {
    /// Open the zip at `path` and check that no two entries share bytes.
    pub(super) fn open(path: &Path, max_bytes: u64) -> Result<Archive, String> {
        let file = File::open(path).map_err(|error| disk::io_unreadable(&error).message)?;
        let zip = ZipArchive::new(file).map_err(|error| {
            format!("an Inspect .eval log that is not a readable zip ({error}); re-run the eval")
        })?;
        refuse_overlaps(&zip)?;
        Ok(Archive {
            zip,
            max_bytes,
            left: max_bytes.saturating_mul(INFLATED_PER_MAX_BYTES),
        })
    }

    /// Every entry's name.
    pub(super) fn names(&self) -> Vec<String> {
        self.zip
            .file_names()
            .filter_map(Result::ok)
            .map(|name| name.into_owned())
            .collect()
    }

    /// An entry's JSON, within the bounds.
    pub(super) fn json(&mut self, entry: &str) -> Result<Value, Refused> {
        if self.left == 0 {
            return Err(self.spent());
        }
        let file = self.zip.by_name(entry).map_err(|error| {
            Refused::Entry(format!(
                "cannot read {entry} in the log ({error}); re-run the eval"
            ))
        })?;
        if file.size() > self.max_bytes {
            let too_large =
                disk::too_large(Some(file.size()), self.max_bytes, &disk::max_bytes_fix);
            return Err(Refused::Entry(format!(
                "{entry} in the log: {}",
                too_large.message
            )));
        }
        let limit = self.max_bytes.min(self.left);
        let mut bytes = Vec::new();
        // One byte past the limit tells a full entry from a larger one.
        let read = file.take(limit.saturating_add(1)).read_to_end(&mut bytes);
        self.left = self.left.saturating_sub(bytes.len() as u64);
        read.map_err(|error| {
            Refused::Entry(format!(
                "cannot inflate {entry} in the log ({error}); re-run the eval"
            ))
        })?;
        if bytes.len() as u64 > limit {
            if limit < self.max_bytes {
                self.left = 0;
                return Err(self.spent());
            }
            let too_large = disk::too_large(None, self.max_bytes, &disk::max_bytes_fix);
            return Err(Refused::Entry(format!(
                "{entry} in the log: {}",
                too_large.message
            )));
        }
        serde_json::from_slice(&bytes).map_err(|error| {
            Refused::Entry(format!(
                "{entry} in the log is not JSON ({error}); re-run the eval"
            ))
        })
    }

    fn spent(&self) -> Refused {
        Refused::Spent(format!(
            "the log inflates to more than {} bytes in all ({INFLATED_PER_MAX_BYTES} × \
             --max-bytes), so this sample and those after it were not read; raise --max-bytes \
             to read them",
            self.max_bytes.saturating_mul(INFLATED_PER_MAX_BYTES)
        ))
    }
}

/// Refuse a zip in which two entries' bytes overlap: every entry of a real archive has its
/// own header and data, one after another.
fn refuse_overlaps(zip: &ZipArchive<File>) -> Result<(), String> {
    let mut spans: Vec<(u64, u64, usize)> = (0..zip.len())
        .filter_map(|index| {
            let entry = zip.by_index_data(index).ok()?;
            let start = entry.header_start();
            let end = start
                .saturating_add(LOCAL_HEADER)
                .saturating_add(entry.compressed_size());
            Some((start, end, index))
        })
        .collect();
    spans.sort_unstable();
    for pair in spans.windows(2) {
        let [(_, end, first), (start, _, second)] = [pair[0], pair[1]];
        if start < end {
            let name = |index: usize| {
                zip.name_for_index(index)
                    .and_then(Result::ok)
                    .map(|name| name.into_owned())
                    .unwrap_or_default()
            };
            return Err(format!(
                "an Inspect .eval log whose zip entries overlap ({} and {} share bytes): \
                 a zip bomb, not a log Inspect wrote; nothing in it was read",
                name(first),
                name(second)
            ));
        }
    }
    Ok(())
}
