//! Listing the files below a folder, for folders that appear and for polling.

use crate::text::shown_path;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use super::ignore::IgnoreRules;

/// Call `found` for every regular file below `dir` (symbolic links to files
/// included) that the rules admit, and for every symbolic link to a folder (its
/// target's metadata), so that a poll sees a link appear. Links to folders are not
/// followed, so a link cycle cannot trap the walk. Returns the folders that could not
/// be listed, as messages; entries that vanish during the walk are not problems.
pub(crate) fn walk_files(
    dir: &Path,
    rules: &IgnoreRules,
    found: &mut dyn FnMut(PathBuf, Metadata),
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = match fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => {
                problems.push(cannot_list(&folder, &error));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    problems.push(cannot_list(&folder, &error));
                    continue;
                }
            };
            let path = entry.path();
            if rules.is_ignored(&path) {
                continue;
            }
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(path),
                Ok(kind) => {
                    // Follows a symbolic link, so a link to a file counts as the file.
                    if let Ok(metadata) = fs::metadata(&path) {
                        if metadata.is_file() || (kind.is_symlink() && metadata.is_dir()) {
                            found(path, metadata);
                        }
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => problems.push(cannot_list(&folder, &error)),
            }
        }
    }
    problems
}

fn cannot_list(folder: &Path, error: &io::Error) -> String {
    format!(
        "cannot list {}: {error}; changes inside it are not seen",
        shown_path(&folder)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_files_recursively_and_skips_ignored_ones() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        for path in [
            "a.txt",
            "sub/b.md",
            "sub/deeper/c.json",
            ".git/HEAD",
            "sub/d.swp",
        ] {
            let path = root.join(path);
            fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
            fs::write(path, "x").expect("write");
        }
        let mut seen = Vec::new();
        let problems = walk_files(root, &IgnoreRules::for_tree(root), &mut |path, _| {
            seen.push(path.strip_prefix(root).expect("inside").to_path_buf())
        });
        seen.sort();
        let expected: Vec<PathBuf> = ["a.txt", "sub/b.md", "sub/deeper/c.json"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(seen, expected);
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn a_missing_folder_lists_nothing_and_is_no_problem() {
        let temp = tempfile::tempdir().expect("temp dir");
        let gone = temp.path().join("gone");
        let problems = walk_files(
            &gone,
            &IgnoreRules::for_tree(temp.path()),
            &mut |path, _| panic!("nothing to find, found {}", shown_path(&path)),
        );
        assert!(problems.is_empty());
    }
}
