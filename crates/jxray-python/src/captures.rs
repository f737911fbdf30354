//! The repair loop's captures (`repair(..., captures=FOLDER)`, python/jxray/_captures.py):
//! the files are the file contract's (`jxray_formats::recorded::attempt_files`, the same
//! bytes npm's loop writes) and are written by the writer `jxray record` uses, so every
//! writer keeps one rule: relative to the folder's handle, a date folder planted as a
//! symlink refused, whole files or none, never an overwrite.

use std::borrow::Cow;
use std::path::PathBuf;

use jxray_formats::recorded::{attempt_files, AttemptRecord};
use jxray_record::{Folder, Placing};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

/// Create the captures folder when missing and check that a file can be written in it, so a
/// folder that cannot be used is an error before the loop's first paid call.
#[pyfunction]
pub fn open_captures(folder: PathBuf) -> PyResult<()> {
    std::fs::create_dir_all(&folder)?;
    Folder::open(&folder)?.check_writable()?;
    Ok(())
}

/// The attempt `record` (an `AttemptRecord` as JSON) describes.
fn attempt(record: &[u8]) -> PyResult<AttemptRecord> {
    serde_json::from_slice(record)
        .map_err(|error| PyValueError::new_err(format!("jxray: not an attempt record: {error}")))
}

/// An attempt's stem and its files, `(stem, [(name ending, bytes)])` (a `Cow` of bytes
/// reaches Python as `bytes`, a `Vec` as a list of numbers).
type StemAndFiles = (String, Vec<(String, Cow<'static, [u8]>)>);

/// The stem and files of one attempt, as they are written.
#[pyfunction]
pub fn attempt_files_of(record: &[u8]) -> PyResult<StemAndFiles> {
    let record = attempt(record)?;
    let files = attempt_files(&record)
        .into_iter()
        .map(|(ending, bytes)| (ending.to_string(), Cow::Owned(bytes)))
        .collect();
    Ok((record.stem(), files))
}

/// Write one attempt (an `AttemptRecord` as JSON) as `FOLDER/DAY/STEM.jsonl` and its request
/// file beside it, under the first free stem (`STEM`, `STEM-2`, …). Returns the capture's
/// path relative to the folder, and why the request file is missing when it is.
#[pyfunction]
pub fn write_attempt(folder: PathBuf, record: &[u8]) -> PyResult<(String, Option<String>)> {
    let record = attempt(record)?;
    let day = record.started.day_folder();
    let files = attempt_files(&record);
    let named = |_: &str| {
        files
            .iter()
            .map(|(ending, bytes)| (ending.to_string(), Cow::Borrowed(bytes.as_slice())))
            .collect()
    };
    let placed = Folder::open(&folder)?.place(&Placing {
        folder: Some(&day),
        stem: &record.stem(),
        files: &named,
        taken: &|_| false,
        mode: jxray_record::CAPTURE_MODE,
    })?;
    let name = placed
        .paths
        .first()
        .and_then(|path| path.file_name())
        .and_then(|name| name.to_str())
        .ok_or_else(|| {
            PyOSError::new_err("the capture was written under a name that is not UTF-8")
        })?;
    Ok((
        format!("{day}/{name}"),
        placed.later_error.map(|error| error.to_string()),
    ))
}
