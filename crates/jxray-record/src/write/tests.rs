use super::*;
use std::fs;

fn files<'a>(capture: &'a [u8], extension: &'a str) -> CaptureFiles<'a> {
    CaptureFiles {
        folder: "2026-12-01",
        stem: "14-03-22.118-m",
        extension,
        capture,
        request: capture,
    }
}

fn folder(dir: &Path) -> Folder {
    Folder::open(&fs::canonicalize(dir).unwrap()).unwrap()
}

#[test]
fn a_taken_name_gets_a_suffix_and_nothing_is_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder(dir.path());
    let first = folder.write(&files(b"1", ".json")).unwrap().capture;
    let second = folder.write(&files(b"2", ".json")).unwrap().capture;
    assert!(first.ends_with("2026-12-01/14-03-22.118-m.json"));
    assert!(second.ends_with("2026-12-01/14-03-22.118-m-2.json"));
    assert_eq!(fs::read(&first).unwrap(), b"1");
    assert_eq!(fs::read(&second).unwrap(), b"2");
    let request = dir.path().join("2026-12-01/14-03-22.118-m-2.request.json");
    assert_eq!(fs::read(request).unwrap(), b"2");
    let names: Vec<_> = fs::read_dir(dir.path().join("2026-12-01"))
        .unwrap()
        .collect();
    assert_eq!(names.len(), 4, "no temporary or claim file is left");
}

#[test]
fn a_capture_of_another_kind_never_shares_a_request_file() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder(dir.path());
    let json = folder.write(&files(b"json", ".json")).unwrap();
    let sse = folder.write(&files(b"sse", ".sse")).unwrap();
    assert!(json.request_error.is_none() && sse.request_error.is_none());
    assert!(sse.capture.ends_with("14-03-22.118-m-2.sse"));
    let beside = |capture: &Path| {
        let stem = capture.file_stem().unwrap().to_str().unwrap();
        fs::read(capture.with_file_name(format!("{stem}{REQUEST_SUFFIX}"))).unwrap()
    };
    assert_eq!(beside(&json.capture), b"json");
    assert_eq!(beside(&sse.capture), b"sse");
}

#[test]
fn writers_at_once_each_get_their_own_name() {
    let dir = tempfile::tempdir().unwrap();
    let folder = folder(dir.path());
    std::thread::scope(|scope| {
        for n in 0..32 {
            let folder = &folder;
            scope.spawn(move || {
                let body = n.to_string();
                let extension = if n % 2 == 0 { ".json" } else { ".sse" };
                let written = folder.write(&files(body.as_bytes(), extension)).unwrap();
                assert!(written.request_error.is_none());
            });
        }
    });
    let day = dir.path().join("2026-12-01");
    let mut captures = 0;
    for entry in fs::read_dir(&day).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(!name.starts_with('.'), "{name} left behind");
        if name.ends_with(REQUEST_SUFFIX) {
            continue;
        }
        captures += 1;
        let stem = name.rsplit_once('.').unwrap().0;
        let request = fs::read(day.join(format!("{stem}{REQUEST_SUFFIX}"))).unwrap();
        assert_eq!(request, fs::read(day.join(&name)).unwrap(), "{name}");
    }
    assert_eq!(captures, 32);
}

/// A link to a folder outside, planted (by `plant(target, at)`) as the date folder: the
/// write is refused with an error naming it as `kind`, and nothing lands outside.
fn planted_date_folder_is_refused(plant: fn(&Path, &Path), kind: &str) {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let folder = folder(dir.path());
    plant(outside.path(), &dir.path().join("2026-12-01"));
    let error = folder.write(&files(b"1", ".json")).unwrap_err();
    assert!(error.to_string().contains(kind), "{error}");
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_planted_symlink_does_not_lead_writes_outside() {
    planted_date_folder_is_refused(
        |target, at| std::os::unix::fs::symlink(target, at).unwrap(),
        "symlink",
    );
}

#[cfg(unix)]
#[test]
fn a_date_folder_swapped_for_a_symlink_while_writing_never_leads_outside() {
    // Someone with write access to the folder swaps the date folder for a symlink and
    // back, as fast as they can, while captures are written.
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let folder = folder(dir.path());
    let day = dir.path().join("2026-12-01");
    let aside = dir.path().join("aside");
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                if fs::rename(&day, &aside).is_ok() {
                    let _ = std::os::unix::fs::symlink(outside.path(), &day);
                    let _ = fs::remove_file(&day);
                    let _ = fs::rename(&aside, &day);
                }
            }
        });
        for n in 0..300 {
            let body = n.to_string();
            // A write may be refused (the symlink was there): never misplaced.
            let _ = folder.write(&files(body.as_bytes(), ".json"));
        }
        stop.store(true, Ordering::Relaxed);
    });
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn a_folder_swapped_for_a_symlink_after_it_was_opened_is_not_followed() {
    // The capture folder itself is renamed away and a symlink put in its place: the
    // handle still points at the folder that was opened, so nothing lands outside.
    let parent = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let to = parent.path().join("captures");
    fs::create_dir(&to).unwrap();
    let folder = folder(&to);
    fs::rename(&to, parent.path().join("moved")).unwrap();
    std::os::unix::fs::symlink(outside.path(), &to).unwrap();
    folder.write(&files(b"1", ".json")).unwrap();
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    assert!(parent
        .path()
        .join("moved/2026-12-01/14-03-22.118-m.json")
        .is_file());
}

// Windows: the same guarantees, with Windows' links. A directory symlink needs the
// privilege to create one (an administrator, or Developer Mode); a junction does not.

/// A junction at `at` to `target`, made as a user would (`mklink /J`).
#[cfg(windows)]
fn junction(target: &Path, at: &Path) {
    let made = std::process::Command::new("cmd")
        .args(["/C", "mklink", "/J"])
        .arg(at)
        .arg(target)
        .output()
        .unwrap();
    assert!(made.status.success(), "mklink /J: {made:?}");
    let kind = fs::symlink_metadata(at)
        .unwrap_or_else(|error| panic!("mklink /J made no {}: {error}", at.display()));
    assert!(
        std::os::windows::fs::MetadataExt::file_attributes(&kind) & 0x400 != 0,
        "{} is not a reparse point",
        at.display()
    );
}

#[cfg(windows)]
#[test]
fn a_planted_junction_is_refused_and_nothing_lands_outside() {
    planted_date_folder_is_refused(junction, "junction");
}

#[cfg(windows)]
#[test]
fn a_planted_directory_symlink_is_refused_and_nothing_lands_outside() {
    planted_date_folder_is_refused(
        |target, at| std::os::windows::fs::symlink_dir(target, at).unwrap(),
        "symlink",
    );
}

#[cfg(windows)]
#[test]
fn a_planted_file_link_is_never_written_through() {
    // A symlink to a file outside, planted under the name the capture would get:
    // the capture takes the next name, and the file outside is untouched.
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("target.json");
    fs::write(&target, b"outside").unwrap();
    let folder = folder(dir.path());
    fs::create_dir(dir.path().join("2026-12-01")).unwrap();
    std::os::windows::fs::symlink_file(&target, dir.path().join("2026-12-01/14-03-22.118-m.json"))
        .unwrap();
    let written = folder.write(&files(b"1", ".json")).unwrap();
    assert!(written
        .capture
        .ends_with("2026-12-01/14-03-22.118-m-2.json"));
    assert_eq!(fs::read(&target).unwrap(), b"outside");
}

#[cfg(windows)]
#[test]
fn the_held_folders_cannot_be_swapped_while_open() {
    // Windows' counterpart of the swap tests above: the capture folder and the date
    // folder are held without FILE_SHARE_DELETE, so renaming either away (the first
    // step of planting a link in its place) fails, and a write still lands in the
    // folder that was opened.
    let parent = tempfile::tempdir().unwrap();
    let to = parent.path().join("captures");
    fs::create_dir(&to).unwrap();
    let folder = folder(&to);
    let renamed = fs::rename(&to, parent.path().join("moved"));
    assert!(
        renamed.is_err(),
        "the capture folder was renamed while held"
    );
    let date = folder.date_folder("2026-12-01").unwrap();
    let renamed = fs::rename(to.join("2026-12-01"), to.join("aside"));
    assert!(renamed.is_err(), "the date folder was renamed while held");
    drop(date);
    folder.write(&files(b"1", ".json")).unwrap();
    assert!(to.join("2026-12-01/14-03-22.118-m.json").is_file());
}
