//! Which paths watch mode never looks at, and how event paths are spelled.
//!
//! Ignored: any hidden component (`.git`, `.cache/`, `.#lock`, `.x.swp`),
//! `target/` and `node_modules/`, editor temporaries (`*.swp`, `*~`, `4913`,
//! `#autosave#`, `*.tmp`, …), jxray's own temporary files
//! ([`TEMP_FILE_PREFIX`]) and configured folders such as the fixtures folder.
//! Without that, saving a fixture inside the watched tree would wake the
//! watcher, which would reload, which is the loop bacon#85 describes.
//!
//! Paths are reported in the spelling the caller gave for the root
//! (`captures/a.txt`, not `/home/u/captures/a.txt`), so that they match the
//! paths a walk of the same root produced.

use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

/// jxray writes fixtures and recorded captures to a temporary file named with this prefix,
/// then renames or links it into place; the watcher ignores such files wherever they appear.
pub use jxray_formats::recorded::TEMP_FILE_PREFIX;

/// Folder names that hold build output or dependencies, never captures.
const IGNORED_FOLDER_NAMES: [&str; 2] = ["target", "node_modules"];

/// Name endings of editor and download temporaries (compared ignoring ASCII case).
const TEMP_SUFFIXES: [&str; 11] = [
    ".swp",
    ".swo",
    ".swn",
    ".swx",
    ".tmp",
    ".part",
    ".crdownload",
    ".kate-swp",
    "___jb_tmp___",
    "___jb_old___",
    "~",
];

/// Decides which event paths matter and spells them as the caller does.
#[derive(Debug, Clone)]
pub struct IgnoreRules {
    scope: Scope,
    /// Ignored folders, relative to the root.
    folders: Vec<PathBuf>,
}

#[derive(Debug, Clone)]
enum Scope {
    /// A folder watched recursively. Some platforms report canonical paths
    /// (macOS FSEvents), so the canonical spelling is accepted too.
    Tree {
        root: PathBuf,
        canonical: Option<PathBuf>,
    },
    /// A single file, watched through its parent folder (editors replace
    /// files by rename, which a watch on the file itself would not survive).
    File { path: PathBuf },
}

impl IgnoreRules {
    /// Rules for a folder, with the built-in ignores only.
    pub fn for_tree(root: impl Into<PathBuf>) -> IgnoreRules {
        IgnoreRules {
            scope: Scope::Tree {
                root: root.into(),
                canonical: None,
            },
            folders: Vec::new(),
        }
    }

    /// Rules for a single file: only that file is admitted.
    pub(crate) fn for_file(path: impl Into<PathBuf>) -> IgnoreRules {
        IgnoreRules {
            scope: Scope::File { path: path.into() },
            folders: Vec::new(),
        }
    }

    /// Rules for a root as given on the command line: a folder or a file,
    /// with `folders` (absolute or relative to the current directory)
    /// ignored when they lie inside it. Reads the file system to resolve
    /// spellings; a folder that does not exist yet is still honoured.
    pub(crate) fn for_root(root: &Path, folders: &[PathBuf]) -> IgnoreRules {
        if root.is_file() {
            return IgnoreRules::for_file(root);
        }
        let canonical = resolve(root);
        let mut rules = IgnoreRules::for_tree(root);
        for folder in folders {
            let inside = canonical
                .as_deref()
                .zip(resolve(folder))
                .and_then(|(root, folder)| folder.strip_prefix(root).ok().map(Path::to_path_buf));
            // An ignored folder that is (or holds) the root would silence
            // everything the user asked to watch; it is not applied.
            if let Some(relative) = inside.filter(|relative| !relative.as_os_str().is_empty()) {
                rules = rules.ignore_folder(relative);
            }
        }
        if let Some(canonical) = canonical {
            rules = rules.with_canonical_root(canonical);
        }
        rules
    }

    /// Also accept event paths under `canonical`, the root's canonical spelling.
    pub fn with_canonical_root(mut self, canonical: PathBuf) -> IgnoreRules {
        if let Scope::Tree {
            canonical: slot, ..
        } = &mut self.scope
        {
            *slot = Some(canonical);
        }
        self
    }

    /// Ignore everything under `relative` (a folder relative to the root).
    pub fn ignore_folder(mut self, relative: impl Into<PathBuf>) -> IgnoreRules {
        self.folders.push(relative.into());
        self
    }

    /// The root as the caller spelled it (the file, for a single-file watch).
    pub(crate) fn root(&self) -> &Path {
        match &self.scope {
            Scope::Tree { root, .. } | Scope::File { path: root } => root,
        }
    }

    /// Whether the root is a single file.
    pub(crate) fn is_single_file(&self) -> bool {
        matches!(self.scope, Scope::File { .. })
    }

    /// The path to track for an event path, in the caller's spelling, or
    /// `None` when the path is ignored or outside the watched root.
    pub(crate) fn admit(&self, path: &Path) -> Option<PathBuf> {
        match &self.scope {
            Scope::File { path: file } => (path.file_name().is_some()
                && path.file_name() == file.file_name())
            .then(|| file.clone()),
            Scope::Tree { root, canonical } => {
                if let Ok(relative) = path.strip_prefix(root) {
                    return self.admits_relative(relative).then(|| path.to_path_buf());
                }
                let relative = path.strip_prefix(canonical.as_deref()?).ok()?;
                self.admits_relative(relative).then(|| root.join(relative))
            }
        }
    }

    /// Whether an event path is ignored (or outside the root).
    pub fn is_ignored(&self, path: &Path) -> bool {
        self.admit(path).is_none()
    }

    fn admits_relative(&self, relative: &Path) -> bool {
        let names: Vec<&OsStr> = relative
            .components()
            .filter_map(|component| match component {
                Component::Normal(name) => Some(name),
                _ => None,
            })
            .collect();
        let ignored_name = names.iter().enumerate().any(|(index, name)| {
            let name = name.to_string_lossy();
            name.starts_with('.')
                || IGNORED_FOLDER_NAMES.contains(&name.as_ref())
                || (index + 1 == names.len() && is_temp_name(&name))
        });
        !ignored_name
            && !self
                .folders
                .iter()
                .any(|folder| relative.starts_with(folder))
    }
}

/// Whether a file name is an editor, download or jxray temporary.
pub(super) fn is_temp_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name == "4913"
        || name.starts_with(TEMP_FILE_PREFIX)
        || name.starts_with(".#")
        || name.starts_with("~$")
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
        || TEMP_SUFFIXES.iter().any(|suffix| lower.ends_with(suffix))
}

/// The canonical spelling of `path`, also for a path that does not exist
/// yet: its nearest existing ancestor is canonicalized and the rest appended.
fn resolve(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut missing: Vec<&OsStr> = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            return Some(
                missing
                    .iter()
                    .rev()
                    .fold(canonical, |acc, name| acc.join(name)),
            );
        }
        missing.push(existing.file_name()?);
        existing = existing.parent()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admitted(rules: &IgnoreRules, path: &str) -> bool {
        !rules.is_ignored(Path::new(path))
    }

    #[test]
    fn editor_and_download_temporaries_are_ignored() {
        for name in [
            "a.txt.swp",
            "a.swx",
            "a.txt~",
            "4913",
            ".#a.txt",
            "#a.txt#",
            "a.tmp",
            "A.TMP",
            ".a.txt.kate-swp",
            "a.part",
            "a.crdownload",
            "~$report.docx",
            "a.txt___jb_tmp___",
            ".jxray-tmp-42",
        ] {
            assert!(is_temp_name(name), "{name}");
            assert!(
                !admitted(&IgnoreRules::for_tree("w"), &format!("w/{name}")),
                "{name}"
            );
        }
    }

    #[test]
    fn captures_are_admitted_in_the_callers_spelling() {
        let rules = IgnoreRules::for_tree("w");
        for path in [
            "w/a.txt",
            "w/sub/b.json",
            "w/4913.txt",
            "w/#notes",
            "w/tmp/a.md",
        ] {
            assert_eq!(
                rules.admit(Path::new(path)),
                Some(PathBuf::from(path)),
                "{path}"
            );
        }
        let dotted = IgnoreRules::for_tree("./w");
        assert!(admitted(&dotted, "./w/a.txt"));
    }

    #[test]
    fn hidden_build_and_dependency_folders_are_ignored() {
        let rules = IgnoreRules::for_tree("w");
        for path in [
            "w/.git/index",
            "w/.cache/a.txt",
            "w/sub/.hidden/a.txt",
            "w/target/debug/a.txt",
            "w/x/node_modules/p/a.json",
            "w/.env",
        ] {
            assert!(!admitted(&rules, path), "{path}");
        }
    }

    #[test]
    fn paths_outside_the_root_are_not_admitted() {
        let rules = IgnoreRules::for_tree("w");
        assert!(!admitted(&rules, "elsewhere/a.txt"));
        assert!(
            admitted(&rules, "w"),
            "the root itself (deleted or moved) matters"
        );
    }

    #[test]
    fn configured_folders_are_ignored_and_canonical_paths_mapped_back() {
        let rules = IgnoreRules::for_tree("w")
            .ignore_folder("fixtures")
            .with_canonical_root(PathBuf::from("/real/w"));
        assert!(!admitted(&rules, "w/fixtures/case.json"));
        assert!(admitted(&rules, "w/fixtures-old/case.json"));
        assert_eq!(
            rules.admit(Path::new("/real/w/sub/a.txt")),
            Some(PathBuf::from("w/sub/a.txt"))
        );
        assert!(!admitted(&rules, "/real/w/fixtures/a.json"));
    }

    #[test]
    fn a_single_file_admits_only_itself() {
        let rules = IgnoreRules::for_file("dir/out.jsonl");
        assert_eq!(
            rules.admit(Path::new("./dir/out.jsonl")),
            Some(PathBuf::from("dir/out.jsonl"))
        );
        assert!(!admitted(&rules, "dir/other.jsonl"));
        assert!(!admitted(&rules, "dir/out.jsonl.swp"));
        assert!(!admitted(&rules, "dir"));
    }

    #[test]
    fn for_root_resolves_folders_inside_the_root_even_before_they_exist() {
        let temp = tempfile::tempdir().expect("temp dir");
        let root = temp.path().join("captures");
        std::fs::create_dir(&root).expect("root");
        let rules = IgnoreRules::for_root(
            &root,
            &[
                root.join("fixtures"),
                temp.path().join("elsewhere"),
                root.clone(),
            ],
        );
        assert!(!admitted(
            &rules,
            &root.join("fixtures/a.json").to_string_lossy()
        ));
        assert!(admitted(&rules, &root.join("a.json").to_string_lossy()));
        let file = root.join("a.txt");
        std::fs::write(&file, "x").expect("file");
        assert!(IgnoreRules::for_root(&file, &[]).is_single_file());
    }
}
