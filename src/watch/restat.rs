//! Events are hints: what is at each path of a batch decides what changed.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::coalesce::Batch;
use super::event::Change;
use super::ignore::IgnoreRules;
use super::walk::walk_files;

/// What a batch turned out to mean.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Restat {
    /// Sorted by path, each path once.
    pub changes: Vec<Change>,
    /// Folders that could not be listed.
    pub problems: Vec<String>,
}

/// Look at every path of `batch`: an existing file is `Changed`, a missing
/// path `Removed`, and a folder that appeared contributes every file below
/// it (a folder moved in brings files that raised no events of their own).
/// A path that exists but cannot be inspected is `Changed`, so that the
/// loader reports why it cannot be read instead of the file going missing.
/// Special files (pipes, sockets) are left out: reading them would block.
pub fn restat(batch: &Batch, rules: &IgnoreRules) -> Restat {
    let mut removed: BTreeMap<PathBuf, bool> = BTreeMap::new();
    let mut problems = Vec::new();
    for touched in &batch.touched {
        let path = &touched.path;
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                if touched.appeared {
                    problems.extend(walk_files(path, rules, &mut |file, _| {
                        removed.insert(file, false);
                    }));
                }
            }
            Ok(metadata) if metadata.is_file() => {
                removed.insert(path.clone(), false);
            }
            Ok(_) => {}
            Err(error) if is_gone(&error, path) => {
                removed.insert(path.clone(), true);
            }
            Err(_) => {
                removed.insert(path.clone(), false);
            }
        }
    }
    let changes = removed
        .into_iter()
        .map(|(path, gone)| match gone {
            true => Change::Removed(path),
            false => Change::Changed(path),
        })
        .collect();
    Restat { changes, problems }
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

    fn names(root: &Path, restat: &Restat) -> Vec<String> {
        restat
            .changes
            .iter()
            .map(|change| {
                let name = change.path().strip_prefix(root).expect("inside");
                match change {
                    Change::Changed(_) => format!("changed {}", name.display()),
                    Change::Removed(_) => format!("removed {}", name.display()),
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
        let rules = IgnoreRules::for_tree(root);
        let result = restat(
            &batch(
                root,
                &[
                    ("a.txt", false),
                    ("gone.txt", true),
                    ("blocker/x.txt", true),
                ],
            ),
            &rules,
        );
        assert_eq!(
            names(root, &result),
            ["changed a.txt", "removed blocker/x.txt", "removed gone.txt"]
        );
    }

    #[test]
    fn an_appeared_folder_is_listed_a_modified_one_is_not() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        fs::create_dir_all(root.join("new/deep")).expect("dirs");
        fs::create_dir(root.join("old")).expect("dir");
        for path in ["new/a.txt", "new/deep/b.txt", "new/c.swp", "old/d.txt"] {
            fs::write(root.join(path), "x").expect("write");
        }
        let rules = IgnoreRules::for_tree(root);
        let result = restat(
            &batch(root, &[("new", true), ("new/a.txt", false), ("old", false)]),
            &rules,
        );
        assert_eq!(
            names(root, &result),
            ["changed new/a.txt", "changed new/deep/b.txt"]
        );
        assert!(result.problems.is_empty());
    }
}
