//! notify's events and errors, turned into hints and decisions.

use std::io;
use std::path::PathBuf;

use notify::event::{AccessKind, AccessMode, ModifyKind};
use notify::{ErrorKind, Event, EventKind};

use super::coalesce::{Hint, HintKind};

/// The hints one notify event carries. Opening or reading a file is not a
/// change (and jxray reading a changed file must not wake the watcher again);
/// closing a file that was written is, as it marks the end of a write.
pub(crate) fn hints(event: &Event) -> Vec<Hint> {
    let kind = match event.kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => HintKind::Modified,
        EventKind::Access(_) => return Vec::new(),
        EventKind::Create(_) => HintKind::Created,
        EventKind::Modify(ModifyKind::Name(_)) => HintKind::Renamed,
        EventKind::Modify(_) => HintKind::Modified,
        EventKind::Remove(_) => HintKind::Removed,
        EventKind::Any | EventKind::Other => HintKind::Any,
    };
    event
        .paths
        .iter()
        .map(|path| Hint::new(path.clone(), kind))
        .collect()
}

/// What to do about an error from the native watcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ErrorAction {
    /// The native watcher can no longer be trusted: poll instead, for this reason.
    FallBack(String),
    /// A path vanished while being watched: look at it again.
    Hint(Vec<PathBuf>),
    /// Worth telling, but watching goes on.
    Report(String),
}

pub(crate) fn classify(error: &notify::Error) -> ErrorAction {
    match &error.kind {
        ErrorKind::PathNotFound | ErrorKind::WatchNotFound => {
            ErrorAction::Hint(error.paths.clone())
        }
        ErrorKind::Io(io) if io.kind() == io::ErrorKind::NotFound => {
            ErrorAction::Hint(error.paths.clone())
        }
        ErrorKind::MaxFilesWatch | ErrorKind::Io(_) => {
            ErrorAction::FallBack(fallback_reason(error))
        }
        ErrorKind::Generic(_) | ErrorKind::InvalidConfig(_) => {
            ErrorAction::Report(format!("file watcher: {error}"))
        }
    }
}

/// Why the native watcher cannot be used, with the fix when it is a known limit.
pub(crate) fn fallback_reason(error: &notify::Error) -> String {
    const EMFILE: i32 = 24;
    match &error.kind {
        ErrorKind::MaxFilesWatch => "the inotify watch limit is reached; raise it with \
             `sudo sysctl fs.inotify.max_user_watches=524288`"
            .to_string(),
        ErrorKind::Io(io) if cfg!(target_os = "linux") && io.raw_os_error() == Some(EMFILE) => {
            format!(
                "the native watcher cannot start ({io}); raise the inotify instance limit \
                 with `sudo sysctl fs.inotify.max_user_instances=512` or close other watchers"
            )
        }
        _ => format!("the native watcher failed: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, DataChange, RemoveKind, RenameMode};

    fn event(kind: EventKind, paths: &[&str]) -> Event {
        paths.iter().fold(Event::new(kind), |event, path| {
            event.add_path(PathBuf::from(path))
        })
    }

    #[test]
    fn reads_and_opens_are_not_changes_but_a_closed_write_is() {
        let open = event(EventKind::Access(AccessKind::Open(AccessMode::Any)), &["a"]);
        let read = event(
            EventKind::Access(AccessKind::Close(AccessMode::Read)),
            &["a"],
        );
        let written = event(
            EventKind::Access(AccessKind::Close(AccessMode::Write)),
            &["a"],
        );
        assert!(hints(&open).is_empty());
        assert!(hints(&read).is_empty());
        assert_eq!(hints(&written), vec![Hint::new("a", HintKind::Modified)]);
    }

    #[test]
    fn kinds_map_and_every_path_of_a_rename_is_hinted() {
        let cases = [
            (EventKind::Create(CreateKind::File), HintKind::Created),
            (
                EventKind::Modify(ModifyKind::Data(DataChange::Any)),
                HintKind::Modified,
            ),
            (EventKind::Remove(RemoveKind::Folder), HintKind::Removed),
            (EventKind::Any, HintKind::Any),
        ];
        for (kind, expected) in cases {
            assert_eq!(hints(&event(kind, &["a"])), vec![Hint::new("a", expected)]);
        }
        let rename = event(
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            &["x.tmp", "x.txt"],
        );
        assert_eq!(
            hints(&rename),
            vec![
                Hint::new("x.tmp", HintKind::Renamed),
                Hint::new("x.txt", HintKind::Renamed)
            ]
        );
    }

    #[test]
    fn the_watch_limit_falls_back_with_the_sysctl_hint() {
        let limit = notify::Error::new(ErrorKind::MaxFilesWatch);
        match classify(&limit) {
            ErrorAction::FallBack(reason) => {
                assert!(
                    reason.contains("sysctl fs.inotify.max_user_watches="),
                    "{reason}"
                )
            }
            other => panic!("expected a fallback, got {other:?}"),
        }
    }

    #[test]
    fn a_vanished_path_is_a_hint_and_a_broken_watcher_a_fallback() {
        let vanished = notify::Error::path_not_found().add_path(PathBuf::from("w/sub"));
        assert_eq!(
            classify(&vanished),
            ErrorAction::Hint(vec![PathBuf::from("w/sub")])
        );
        let broken = notify::Error::io(io::Error::other("read failed"));
        assert!(
            matches!(classify(&broken), ErrorAction::FallBack(reason) if reason.contains("read failed"))
        );
        let generic = notify::Error::generic("odd");
        assert!(matches!(classify(&generic), ErrorAction::Report(_)));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn too_many_instances_names_the_instance_limit() {
        let error = notify::Error::io(io::Error::from_raw_os_error(24));
        assert!(fallback_reason(&error).contains("fs.inotify.max_user_instances="));
    }
}
