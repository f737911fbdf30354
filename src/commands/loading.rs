//! TEMPORARY stand-in for `jxray::capture::load` until the loader lands on
//! `main`; same signature, plain text files only. Removed on that merge.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use jxray::capture::{Capture, Unreadable};

#[derive(Debug, Clone, Copy)]
pub struct LoadOptions {
    pub max_bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{}: no such file or folder; check the path", path.display())]
    NotFound { path: PathBuf },
}

pub fn load(path: &Path, options: &LoadOptions) -> Result<Vec<Capture>, LoadError> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        let text = io::stdin()
            .take(options.max_bytes + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes);
        return Ok(vec![capture("-", path, text, options)]);
    }
    if !path.exists() {
        return Err(LoadError::NotFound {
            path: path.to_path_buf(),
        });
    }
    let mut files = Vec::new();
    walk(path, &mut files);
    files.sort();
    Ok(files
        .iter()
        .map(|file| {
            let source = file
                .strip_prefix(path)
                .ok()
                .filter(|rest| !rest.as_os_str().is_empty())
                .unwrap_or(file)
                .display()
                .to_string();
            capture(&source, file, fs::read(file), options)
        })
        .collect())
}

fn walk(path: &Path, files: &mut Vec<PathBuf>) {
    if !path.is_dir() {
        files.push(path.to_path_buf());
        return;
    }
    for entry in fs::read_dir(path).into_iter().flatten().flatten() {
        if !entry.file_name().to_string_lossy().starts_with('.') {
            walk(&entry.path(), files);
        }
    }
}

fn capture(
    source: &str,
    path: &Path,
    bytes: io::Result<Vec<u8>>,
    options: &LoadOptions,
) -> Capture {
    let mut capture = Capture::from_text(source, "");
    capture.path = path.to_path_buf();
    capture.text = match bytes {
        Err(error) => Err(Unreadable {
            message: error.to_string(),
        }),
        Ok(bytes) if bytes.len() as u64 > options.max_bytes => Err(Unreadable {
            message: format!("larger than --max-bytes {}", options.max_bytes),
        }),
        Ok(bytes) => String::from_utf8(bytes).map_err(|error| Unreadable {
            message: format!("not UTF-8: {error}"),
        }),
    };
    capture
}
