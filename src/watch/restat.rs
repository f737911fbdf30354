//! Events are hints: what is at each path of a batch decides what changed.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::coalesce::Batch;
use super::event::PathChange;

/// Look at every path of `batch`: an existing file is `Changed`, a missing
/// path `Removed`, and a folder that appeared (made, moved in with files that raised no
/// events of their own, a link, or put where a file was) is a `Folder` for the caller to
/// read with its own rules. A path that exists but cannot be inspected is `Changed`, and so
/// is a FIFO, socket or device: the loader reports why it is not read, as the first load
/// does, instead of the path going missing (it never opens one). Sorted by path, each
/// path once.
pub fn restat(batch: &Batch) -> Vec<PathChange> {
    let mut changes: BTreeMap<PathBuf, PathChange> = BTreeMap::new();
    for touched in &batch.touched {
        let path = &touched.path;
        let change = match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => match touched.appeared {
                true => PathChange::Folder(path.clone()),
                // Its entries report their own changes.
                false => continue,
            },
            Ok(_) => PathChange::Changed(path.clone()),
            Err(error) if is_gone(&error, path) => PathChange::Removed(path.clone()),
            Err(_) => PathChange::Changed(path.clone()),
        };
        changes.insert(path.clone(), change);
    }
    changes.into_values().collect()
}

/// Not found, or a parent is now a file (so nothing can be below it).
fn is_gone(error: &io::Error, path: &Path) -> bool {
    error.kind() == io::ErrorKind::NotFound || path.ancestors().skip(1).any(Path::is_file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::watch::coalesce::Touched;

    fn batch(root: &Path, entries: &[(&str, bool)]) -> Batch {
        Batch {
            touched: entries
                .iter()
                .map(|(path, appeared)| Touched {
                    path: root.join(path),
                    appeared: *appeared,
                })
                .collect(),
            rescan: false,
        }
    }

    fn names(root: &Path, changes: &[PathChange]) -> Vec<String> {
        changes
            .iter()
            .map(|change| {
                let name = change.path().strip_prefix(root).expect("inside");
                match change {
                    PathChange::Changed(_) => format!("changed {}", name.display()),
                    PathChange::Removed(_) => format!("removed {}", name.display()),
                    PathChange::Folder(_) => format!("folder {}", name.display()),
                }
            })
            .collect()
    }

    #[test]
    fn existing_files_change_missing_paths_are_removed() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        fs::write(root.join("a.txt"), "x").expect("write");
        fs::write(root.join("blocker"), "x").expect("write");
        let result = restat(&batch(
            root,
            &[
                ("a.txt", false),
                ("gone.txt", true),
                ("blocker/x.txt", true),
            ],
        ));
        assert_eq!(
            names(root, &result),
            ["changed a.txt", "removed blocker/x.txt", "removed gone.txt"]
        );
    }

    #[test]
    fn an_appeared_folder_is_for_the_caller_to_read_a_modified_one_is_not() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        fs::create_dir_all(root.join("new/deep")).expect("dirs");
        fs::create_dir(root.join("old")).expect("dir");
        for path in ["new/a.txt", "new/deep/b.txt", "old/d.txt"] {
            fs::write(root.join(path), "x").expect("write");
        }
        // A file replaced by a folder, and a link to a folder, appear as folders too.
        fs::create_dir(root.join("was-a-file.txt")).expect("dir");
        let mut changed = vec![
            ("new", true),
            ("new/a.txt", false),
            ("old", false),
            ("was-a-file.txt", true),
        ];
        let mut expected = vec!["folder new", "changed new/a.txt", "folder was-a-file.txt"];
        // The link only where one can be made without privileges.
        #[cfg(unix)]
        std::os::unix::fs::symlink("..", root.join("up")).expect("link");
        if cfg!(unix) {
            changed.insert(3, ("up", true));
            expected.insert(2, "folder up");
        }
        let result = restat(&batch(root, &changed));
        assert_eq!(names(root, &result), expected);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_a_change_for_the_loader_to_report() {
        let temp = tempfile::tempdir().expect("temp dir");
        let fifo = temp.path().join("pipe.txt");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo runs").success());
        let result = restat(&batch(temp.path(), &[("pipe.txt", true)]));
        assert_eq!(result, [PathChange::Changed(fifo)]);
    }
}
