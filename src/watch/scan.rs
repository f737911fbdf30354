//! The polling fallback: snapshots of the tree, compared.
//!
//! Used when native notifications are unavailable (inotify limits, network
//! file systems, forced for tests). notify's own `PollWatcher` compares
//! modification times in whole seconds, which misses a file completed in the
//! same second it was first written; this compares full-precision times,
//! sizes and the file's identity (the inode on Unix, the file index on Windows),
//! and skips ignored folders while walking instead of stat'ing `target/` or
//! `node_modules/` on every scan.

use std::collections::BTreeMap;
use std::fs::{self, Metadata};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::coalesce::{Hint, HintKind};
use super::ignore::IgnoreRules;
use super::walk::walk_files;

/// What is compared between scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
    /// Which file it is ([`file_id`]): a file replaced by rename is another
    /// file even when its size and time match the old one.
    id: u64,
}

impl Stamp {
    /// The stamp of the file at `path`, whose metadata (links followed) is `metadata`.
    pub(crate) fn of(path: &Path, metadata: &Metadata) -> Stamp {
        Stamp {
            modified: metadata.modified().ok(),
            len: metadata.len(),
            id: file_id(path, metadata),
        }
    }
}

/// The inode number on Unix.
#[cfg(unix)]
fn file_id(_path: &Path, metadata: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(metadata)
}

/// The file index on Windows (NTFS's file ID, unique on its volume), which the metadata
/// of a listing does not carry: it is asked of a handle opened for no access at all
/// (neither reading nor writing, so it never stands in a writer's way, and sharing
/// deletes, so a rename over the file goes through). 0 when the file cannot be opened,
/// for example after it was removed during the scan; size and time still tell.
#[cfg(windows)]
fn file_id(path: &Path, _metadata: &Metadata) -> u64 {
    use std::os::windows::fs::OpenOptionsExt;
    /// Opens a folder too (a link to a folder is stamped like a file).
    const FILE_FLAG_BACKUP_SEMANTICS: u32 = 0x0200_0000;
    fs::OpenOptions::new()
        .access_mode(0)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)
        .and_then(|file| winapi_util::file::information(&file))
        .map_or(0, |information| information.file_index())
}

#[cfg(not(any(unix, windows)))]
fn file_id(_path: &Path, _metadata: &Metadata) -> u64 {
    0
}

/// Every admitted file under the root and its stamp.
pub(crate) type Snapshot = BTreeMap<PathBuf, Stamp>;

/// Take a snapshot; also returns folders that could not be listed.
pub(crate) fn snapshot(rules: &IgnoreRules) -> (Snapshot, Vec<String>) {
    let mut files = Snapshot::new();
    if rules.is_single_file() {
        if let Ok(metadata) = fs::metadata(rules.root()) {
            if metadata.is_file() {
                files.insert(
                    rules.root().to_path_buf(),
                    Stamp::of(rules.root(), &metadata),
                );
            }
        }
        return (files, Vec::new());
    }
    let problems = walk_files(rules.root(), rules, &mut |path, metadata| {
        let stamp = Stamp::of(&path, &metadata);
        files.insert(path, stamp);
    });
    (files, problems)
}

/// The hints that turn `old` into `new`, in path order.
pub(crate) fn diff(old: &Snapshot, new: &Snapshot) -> Vec<Hint> {
    let mut hints = Vec::new();
    for (path, stamp) in new {
        match old.get(path) {
            None => hints.push(Hint::new(path.clone(), HintKind::Created)),
            Some(before) if before != stamp => {
                hints.push(Hint::new(path.clone(), HintKind::Modified))
            }
            Some(_) => {}
        }
    }
    for path in old.keys().filter(|path| !new.contains_key(*path)) {
        hints.push(Hint::new(path.clone(), HintKind::Removed));
    }
    hints.sort_by(|a, b| a.path.cmp(&b.path));
    hints
}

/// Scans the tree every `interval`, remembering the last snapshot.
#[derive(Debug)]
pub(crate) struct Poller {
    rules: IgnoreRules,
    interval: Duration,
    next: Instant,
    last: Snapshot,
}

impl Poller {
    /// Take the first snapshot now; changes are reported from here on.
    pub(crate) fn start(
        rules: IgnoreRules,
        interval: Duration,
        now: Instant,
    ) -> (Poller, Vec<String>) {
        let (last, problems) = snapshot(&rules);
        let poller = Poller {
            rules,
            interval,
            next: now + interval,
            last,
        };
        (poller, problems)
    }

    /// When the next scan is due.
    pub(crate) fn next_scan(&self) -> Instant {
        self.next
    }

    /// Scan now: the hints since the last scan and any listing problems.
    pub(crate) fn scan(&mut self, now: Instant) -> (Vec<Hint>, Vec<String>) {
        let (current, problems) = snapshot(&self.rules);
        let hints = diff(&self.last, &current);
        self.last = current;
        self.next = now + self.interval;
        (hints, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(len: u64, id: u64) -> Stamp {
        Stamp {
            modified: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(100)),
            len,
            id,
        }
    }

    /// Each hint's path inside `root`, with its kind.
    fn relative<'h>(hints: &'h [Hint], root: &Path) -> Vec<(&'h Path, HintKind)> {
        hints
            .iter()
            .map(|hint| (hint.path.strip_prefix(root).expect("inside"), hint.kind))
            .collect()
    }

    #[test]
    fn diff_names_created_modified_and_removed_files() {
        let old: Snapshot = [("a", stamp(1, 1)), ("b", stamp(1, 2)), ("c", stamp(1, 3))]
            .into_iter()
            .map(|(path, stamp)| (PathBuf::from(path), stamp))
            .collect();
        let new: Snapshot = [
            ("a", stamp(1, 1)),
            ("b", stamp(2, 2)),
            ("c2", stamp(1, 3)),
            ("d", stamp(1, 9)),
        ]
        .into_iter()
        .map(|(path, stamp)| (PathBuf::from(path), stamp))
        .collect();
        let hints = diff(&old, &new);
        assert_eq!(
            hints,
            vec![
                Hint::new("b", HintKind::Modified),
                Hint::new("c", HintKind::Removed),
                Hint::new("c2", HintKind::Created),
                Hint::new("d", HintKind::Created),
            ]
        );
    }

    #[test]
    fn a_file_replaced_with_identical_size_and_time_is_still_seen() {
        let before: Snapshot = [(PathBuf::from("a"), stamp(5, 1))].into_iter().collect();
        let after: Snapshot = [(PathBuf::from("a"), stamp(5, 2))].into_iter().collect();
        assert_eq!(
            diff(&before, &after),
            vec![Hint::new("a", HintKind::Modified)]
        );
    }

    #[test]
    fn a_file_renamed_over_another_of_the_same_size_and_time_is_a_change() {
        use std::io::Write;
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        for name in ["a.txt", "b.txt"] {
            let mut file = fs::File::create(root.join(name)).expect("create");
            file.write_all(b"same size").expect("write");
            file.set_modified(time).expect("set the time");
        }
        let now = Instant::now();
        let (mut poller, _) =
            Poller::start(IgnoreRules::for_tree(root), Duration::from_secs(1), now);
        fs::rename(root.join("b.txt"), root.join("a.txt")).expect("rename");
        let (hints, _) = poller.scan(now);
        let seen = relative(&hints, root);
        assert_eq!(
            seen,
            vec![
                (Path::new("a.txt"), HintKind::Modified),
                (Path::new("b.txt"), HintKind::Removed),
            ]
        );
    }

    #[test]
    fn the_poller_reports_what_changed_between_scans() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path();
        fs::write(root.join("keep.txt"), "1").expect("write");
        fs::write(root.join("drop.txt"), "1").expect("write");
        let now = Instant::now();
        let (mut poller, problems) =
            Poller::start(IgnoreRules::for_tree(root), Duration::from_secs(1), now);
        assert!(problems.is_empty());
        assert_eq!(poller.next_scan(), now + Duration::from_secs(1));
        fs::write(root.join("keep.txt"), "22").expect("write");
        fs::remove_file(root.join("drop.txt")).expect("remove");
        fs::write(root.join("new.txt"), "1").expect("write");
        fs::write(root.join("new.txt.swp"), "1").expect("write");
        let (hints, _) = poller.scan(now);
        let seen = relative(&hints, root);
        assert_eq!(
            seen,
            vec![
                (Path::new("drop.txt"), HintKind::Removed),
                (Path::new("keep.txt"), HintKind::Modified),
                (Path::new("new.txt"), HintKind::Created),
            ]
        );
        assert!(poller.scan(now).0.is_empty(), "nothing changed since");
    }
}
