//! The repair loop's captures (`repair(..., captures=FOLDER)`, python/jxray/_captures.py)
//! written by the writer `jxray record` uses, so both keep one rule: relative to the folder's
//! handle, a date folder planted as a symlink refused, whole files or none, never an
//! overwrite.

use std::path::PathBuf;

use jxray_record::{CaptureFiles, Folder};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// Create the captures folder when missing and check that a file can be written in it, so a
/// folder that cannot be used is an error before the loop's first paid call.
#[pyfunction]
pub fn open_captures(folder: PathBuf) -> PyResult<()> {
    std::fs::create_dir_all(&folder)?;
    Folder::open(&folder)?.check_writable()?;
    Ok(())
}

/// Write one attempt as `FOLDER/DAY/STEM{extension}` and its request file beside it, under
/// the first free stem (`STEM`, `STEM-2`, …). Returns the capture's path relative to the
/// folder, and why the request file is missing when it is.
#[pyfunction]
pub fn write_capture(
    folder: PathBuf,
    day: &str,
    stem: &str,
    extension: &str,
    capture: &[u8],
    request: &[u8],
) -> PyResult<(String, Option<String>)> {
    let written = Folder::open(&folder)?.write(&CaptureFiles {
        folder: day,
        stem,
        extension,
        capture,
        request,
    })?;
    let name = written
        .capture
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| {
            PyOSError::new_err("the capture was written under a name that is not UTF-8")
        })?;
    Ok((
        format!("{day}/{name}"),
        written.request_error.map(|error| error.to_string()),
    ))
}
