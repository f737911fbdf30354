//! The folder walk: which files are captures, what is skipped, the order, and links.

use std::fs;
use std::path::Path;

use jxray::capture::{discover, load, LoadError, LoadOptions};

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn sources(root: &Path) -> Vec<String> {
    load(root, &LoadOptions::default())
        .unwrap()
        .into_iter()
        .map(|capture| capture.source)
        .collect()
}

fn message(root: &Path, source: &str) -> String {
    let captures = load(root, &LoadOptions::default()).unwrap();
    let capture = captures
        .iter()
        .find(|capture| capture.source == source)
        .unwrap_or_else(|| panic!("no capture {source}"));
    capture.text.clone().unwrap_err().message
}

#[test]
fn walk_is_recursive_and_sorted_by_relative_path() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.txt", "{}");
    write(dir.path(), "a/z.md", "{}");
    write(dir.path(), "a-b.out", "{}");
    write(dir.path(), "a/deeper/y.txt", "{}");
    write(dir.path(), "run-7", "{}");
    write(dir.path(), "run-at-10.30", "{}");
    assert_eq!(
        sources(dir.path()),
        [
            "a-b.out",
            "a/deeper/y.txt",
            "a/z.md",
            "b.txt",
            "run-7",
            "run-at-10.30"
        ]
    );
}

#[test]
fn walk_skips_hidden_tool_folders_and_non_captures() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "keep.txt", "{}");
    write(dir.path(), "KEEP2.JSON", "{}");
    write(dir.path(), ".hidden/a.txt", "{}");
    write(dir.path(), ".git/HEAD", "ref");
    write(dir.path(), ".DS_Store", "x");
    write(dir.path(), "target/debug/out.txt", "{}");
    write(dir.path(), "node_modules/pkg/readme.md", "{}");
    write(dir.path(), "logo.png", "x");
    write(dir.path(), "notes.txt~", "x");
    write(dir.path(), "deep/target/skipped.txt", "{}");
    assert_eq!(sources(dir.path()), ["KEEP2.JSON", "keep.txt"]);
}

#[test]
fn a_request_file_beside_a_recorded_capture_is_not_a_capture() {
    let dir = tempfile::tempdir().unwrap();
    for stem in ["d/14-03-22.118-m", "d/14-03-23.000-m", "d/14-03-24.000-m"] {
        write(
            dir.path(),
            &format!("{stem}.request.json"),
            r#"{"jxray_request":1}"#,
        );
    }
    write(dir.path(), "d/14-03-22.118-m.json", "{}");
    write(dir.path(), "d/14-03-23.000-m.sse", "data: {}\n\n");
    // Alone, a file with that name is whatever it holds, like any other.
    write(dir.path(), "alone.request.json", "{}");
    assert_eq!(
        sources(dir.path()),
        [
            "alone.request.json",
            "d/14-03-22.118-m.json",
            "d/14-03-23.000-m.sse",
            "d/14-03-24.000-m.request.json"
        ]
    );
}

#[test]
fn a_deep_tree_is_walked() {
    let dir = tempfile::tempdir().unwrap();
    let deep = vec!["d"; 300].join("/");
    write(dir.path(), &format!("{deep}/bottom.txt"), "{}");
    write(dir.path(), "top.txt", "{}");
    let sources = sources(dir.path());
    assert_eq!(
        sources,
        [format!("{deep}/bottom.txt"), "top.txt".to_string()]
    );
}

#[test]
fn every_capture_extension_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "a.json",
        "a.jsonl",
        "a.log",
        "a.markdown",
        "a.md",
        "a.ndjson",
        "a.out",
        "a.sse",
        "a.text",
        "a.txt",
        "noext",
    ];
    for name in names {
        write(dir.path(), name, "{\"output\": \"{}\"}\n");
    }
    let found = discover(dir.path()).unwrap();
    let found: Vec<_> = found
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(found, names);
}

#[test]
fn single_file_source_is_the_path_as_given() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "one.txt", "{\"a\": 1}");
    let path = dir.path().join("one.txt");
    let captures = load(&path, &LoadOptions::default()).unwrap();
    assert_eq!(captures.len(), 1);
    assert_eq!(captures[0].source, path.to_string_lossy());
    assert_eq!(captures[0].text.as_deref(), Ok("{\"a\": 1}"));
}

#[test]
fn a_single_file_with_any_extension_is_read_when_named() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "answer.yaml", "{\"a\": 1}");
    let captures = load(&dir.path().join("answer.yaml"), &LoadOptions::default()).unwrap();
    assert_eq!(captures[0].text.as_deref(), Ok("{\"a\": 1}"));
}

#[test]
fn missing_path_is_a_load_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    let error = load(&missing, &LoadOptions::default()).unwrap_err();
    assert!(matches!(error, LoadError::NotFound { .. }));
    let text = error.to_string();
    assert!(
        text.contains("nope") && text.contains("check the path"),
        "{text}"
    );
    assert!(!text.contains('\n'));
}

#[cfg(unix)]
mod links {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn dangling_symlink_is_an_unreadable_capture() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "ok.txt", "{}");
        symlink(dir.path().join("gone.txt"), dir.path().join("link.txt")).unwrap();
        assert_eq!(sources(dir.path()), ["link.txt", "ok.txt"]);
        let text = message(dir.path(), "link.txt");
        assert!(text.starts_with("dangling symlink"), "{text}");
        assert!(text.contains("gone.txt"), "{text}");
    }

    #[test]
    fn file_symlink_loop_is_an_unreadable_capture() {
        let dir = tempfile::tempdir().unwrap();
        symlink("b.txt", dir.path().join("a.txt")).unwrap();
        symlink("a.txt", dir.path().join("b.txt")).unwrap();
        assert_eq!(sources(dir.path()), ["a.txt", "b.txt"]);
        assert!(message(dir.path(), "a.txt").starts_with("symlink loop"));
        assert!(message(dir.path(), "b.txt").starts_with("symlink loop"));
    }

    #[test]
    fn folder_symlink_back_to_an_ancestor_is_reported_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "sub/x.txt", "{}");
        symlink(dir.path(), dir.path().join("sub/up")).unwrap();
        assert_eq!(sources(dir.path()), ["sub/up", "sub/x.txt"]);
        let text = message(dir.path(), "sub/up");
        assert!(text.starts_with("symlink loop"), "{text}");
    }

    #[test]
    fn loop_through_two_linked_folders_terminates() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let other = dir.path().join("other");
        write(&root, "a.txt", "{}");
        write(&other, "b.txt", "{}");
        symlink(&other, root.join("to-other")).unwrap();
        symlink(&root, other.join("to-root")).unwrap();
        assert_eq!(
            sources(&root),
            ["a.txt", "to-other/b.txt", "to-other/to-root"]
        );
    }

    #[test]
    fn linked_files_and_folders_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        write(&dir.path().join("elsewhere"), "run.txt", "{\"a\": 1}");
        write(&root, "real.txt", "{}");
        symlink(dir.path().join("elsewhere"), root.join("linked")).unwrap();
        symlink(root.join("real.txt"), root.join("alias.txt")).unwrap();
        let captures = load(&root, &LoadOptions::default()).unwrap();
        let sources: Vec<_> = captures.iter().map(|c| c.source.as_str()).collect();
        assert_eq!(sources, ["alias.txt", "linked/run.txt", "real.txt"]);
        assert_eq!(captures[1].text.as_deref(), Ok("{\"a\": 1}"));
    }

    #[test]
    fn dangling_root_is_a_load_error() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        symlink(dir.path().join("gone"), &link).unwrap();
        let error = load(&link, &LoadOptions::default()).unwrap_err();
        assert!(matches!(error, LoadError::DanglingLink { .. }), "{error}");
    }

    #[test]
    fn looping_root_is_a_load_error() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("self");
        symlink(&link, &link).unwrap();
        let error = load(&link, &LoadOptions::default()).unwrap_err();
        assert!(matches!(error, LoadError::LinkLoop { .. }), "{error}");
        assert!(error
            .to_string()
            .ends_with("symlink loop; point the link at a real file or folder"));
    }

    #[test]
    fn fifo_is_reported_without_being_opened() {
        let dir = tempfile::tempdir().unwrap();
        let status = std::process::Command::new("mkfifo")
            .arg(dir.path().join("pipe.txt"))
            .status()
            .unwrap();
        assert!(status.success());
        let text = message(dir.path(), "pipe.txt");
        assert!(
            text.starts_with("is a FIFO (named pipe), not a regular file"),
            "{text}"
        );
    }
}

/// A folder that appears under a root already walked (watch mode) is walked by the same
/// rules: the same files are captures, and a link back up the tree is returned to be
/// reported, never followed.
#[cfg(unix)]
#[test]
fn a_folder_that_appears_is_walked_by_the_first_walks_rules() {
    use jxray::capture::discover_below;
    use std::os::unix::fs::symlink;
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("root");
    write(&root, "a/b/new/one.txt", "{}");
    write(&root, "a/b/new/skip.csv", "x");
    write(&root, "a/b/new/.hidden.txt", "{}");
    write(&root, "a/b/new/deeper/two.json", "{}");
    write(temp.path(), "beside.txt", "{}");
    symlink("../../..", root.join("a/b/new/to-root")).unwrap();
    symlink("../..", root.join("a/b/up")).unwrap();
    let new = root.join("a/b/new");
    let relative = |paths: Vec<std::path::PathBuf>| -> Vec<String> {
        paths
            .iter()
            .map(|path| {
                path.strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert_eq!(
        relative(discover_below(&root, &new, &[])),
        [
            "a/b/new/deeper/two.json",
            "a/b/new/one.txt",
            "a/b/new/to-root"
        ]
    );
    // The folder itself a link back up: returned alone, to be reported.
    assert_eq!(
        relative(discover_below(&root, &root.join("a/b/up"), &[])),
        ["a/b/up"]
    );
    // The same tree walked from the start reports the same links.
    let first = discover(&root).unwrap();
    assert!(relative(first.clone()).contains(&"a/b/new/to-root".to_string()));
    assert!(relative(first).contains(&"a/b/up".to_string()));
}
