//! One version for every package (CHANGELOG.md): the workspace's, which the crates inherit,
//! the npm package and its platform packages repeat, and the changelog names.

use std::fs;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_crate_takes_the_workspace_version() {
    for entry in fs::read_dir(root().join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        let text = fs::read_to_string(&manifest).unwrap();
        assert!(
            text.lines()
                .any(|line| line.trim() == "version.workspace = true"),
            "{} sets its own version",
            manifest.display()
        );
    }
}

#[test]
fn the_npm_package_has_the_same_version_and_names_its_platform_packages() {
    let read = |path: &str| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(root().join(path)).unwrap()).unwrap()
    };
    // The platform packages are packed as optional dependencies at this same version
    // (npm/scripts/stage.mjs).
    assert_eq!(
        read("npm/package.json")["version"],
        env!("CARGO_PKG_VERSION")
    );
    let platforms = read("npm/platforms.json");
    let platforms = platforms.as_object().unwrap();
    assert!(platforms.contains_key("linux-x64-gnu"));
    for (platform, name) in platforms {
        let name = name.as_str().unwrap();
        assert!(name.starts_with("@jxray/cli-"), "{name}");
        assert!(name.contains(platform.as_str()), "{platform} → {name}");
    }
}

#[test]
fn the_changelog_names_the_version() {
    let changelog = fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let heading = format!("## {} ", env!("CARGO_PKG_VERSION"));
    assert!(
        changelog.lines().any(|line| line.starts_with(&heading)),
        "CHANGELOG.md has no `{heading}…` section"
    );
}
