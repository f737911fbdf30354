//! From links to chains: every attempt of each chain id in order, with the first attempt of
//! a chain `jxray record` linked (it has no link of its own) found through the next one's
//! `re_ask_of`.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::hash::Hash;
use std::path::{Path, PathBuf};

use super::ChainLink;

/// One attempt of a chain: its number and the caller's key for its capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member<K> {
    pub(crate) attempt: u32,
    pub(crate) key: K,
}

/// The attempts of one chain, in order (one capture per attempt number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chain<K> {
    pub(crate) id: String,
    pub(crate) members: Vec<Member<K>>,
}

impl<K: Copy + Eq> Chain<K> {
    /// Where `key` sits: its place from 0, and the member before it.
    pub(crate) fn place(&self, key: K) -> Option<(usize, Option<K>)> {
        let at = self.members.iter().position(|member| member.key == key)?;
        Some((at, at.checked_sub(1).map(|before| self.members[before].key)))
    }
}

/// The chains among `captures` — each a key, its capture file and its link (if any) — in
/// the order their ids first appear. A capture that no link names and that has no link is
/// in no chain. Linear in the captures.
pub(crate) fn assemble<'a, K: Copy + Eq + Hash>(
    captures: impl IntoIterator<Item = (K, &'a Path, Option<&'a ChainLink>)>,
) -> Vec<Chain<K>> {
    let captures: Vec<(K, &Path, Option<&ChainLink>)> = captures.into_iter().collect();
    let mut by_path: HashMap<&Path, K> = HashMap::new();
    // A name that two files share finds neither.
    let mut by_name: HashMap<&OsStr, Option<K>> = HashMap::new();
    for (key, path, _) in &captures {
        by_path.entry(path).or_insert(*key);
        if let Some(name) = path.file_name() {
            by_name
                .entry(name)
                .and_modify(|found| {
                    if *found != Some(*key) {
                        *found = None
                    }
                })
                .or_insert(Some(*key));
        }
    }
    let mut order: Vec<&str> = Vec::new();
    let mut members: HashMap<&str, Vec<Member<K>>> = HashMap::new();
    for (key, path, link) in &captures {
        let Some(link) = link else { continue };
        let chain = members.entry(link.id.as_str()).or_insert_with(|| {
            order.push(link.id.as_str());
            Vec::new()
        });
        chain.push(Member {
            attempt: link.attempt,
            key: *key,
        });
        let previous = previous_capture(link, path)
            .and_then(|previous| by_path.get(previous.as_path()).copied())
            .or_else(|| {
                let name = link.re_ask_of.as_deref()?.rsplit('/').next()?;
                by_name.get(OsStr::new(name)).copied().flatten()
            });
        if let (Some(previous), Some(attempt)) = (previous, link.attempt.checked_sub(1)) {
            if attempt > 0 {
                chain.push(Member {
                    attempt,
                    key: previous,
                });
            }
        }
    }
    order
        .into_iter()
        .map(|id| {
            let mut chain = members.remove(id).unwrap_or_default();
            chain.sort_by_key(|member| member.attempt);
            chain.dedup_by_key(|member| member.attempt);
            Chain {
                id: id.to_string(),
                members: chain,
            }
        })
        .collect()
}

/// The previous attempt's capture file, for the capture at `capture`: its name under the
/// capture folder, the folder that holds `capture`'s date folder.
fn previous_capture(link: &ChainLink, capture: &Path) -> Option<PathBuf> {
    let relative = link.re_ask_of.as_deref()?;
    let folder = capture.parent()?.parent()?;
    Some(
        relative
            .split('/')
            .fold(folder.to_path_buf(), |path, part| path.join(part)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(id: &str, attempt: u32, re_ask_of: Option<&str>) -> ChainLink {
        ChainLink {
            id: id.into(),
            attempt,
            re_ask_of: re_ask_of.map(str::to_string),
        }
    }

    /// The chains of captures at `paths` with `links`, keyed by their index.
    fn chains_of(paths: &[PathBuf], links: &[Option<ChainLink>]) -> Vec<Chain<usize>> {
        assemble(
            paths
                .iter()
                .zip(links)
                .enumerate()
                .map(|(key, (path, link))| (key, path.as_path(), link.as_ref())),
        )
    }

    fn attempts(chain: &Chain<usize>) -> Vec<(u32, usize)> {
        chain.members.iter().map(|m| (m.attempt, m.key)).collect()
    }

    #[test]
    fn a_recorded_first_attempt_joins_through_the_re_ask() {
        let paths: Vec<PathBuf> = ["c/d1/a.json", "c/d1/b.json", "c/d2/x.json", "c/d2/y.json"]
            .map(PathBuf::from)
            .to_vec();
        // b re-asks a (found by path); y re-asks x across a day; a second chain by id only.
        let links = [
            None,
            Some(link("c/d1/a.json", 2, Some("d1/a.json"))),
            Some(link("k", 1, None)),
            Some(link("k", 2, Some("d2/x.json"))),
        ];
        let chains = chains_of(&paths, &links);
        assert_eq!(chains.len(), 2);
        assert_eq!(attempts(&chains[0]), [(1, 0), (2, 1)]);
        assert_eq!(attempts(&chains[1]), [(1, 2), (2, 3)]);
        assert_eq!(chains[0].place(1), Some((1, Some(0))));
        assert_eq!(chains[0].place(0), Some((0, None)));
        assert_eq!(chains[0].place(3), None);
    }

    #[test]
    fn without_a_capture_folder_the_previous_attempt_is_found_by_name() {
        let paths = [PathBuf::from("a.jsonl"), PathBuf::from("b.jsonl")];
        let links = [None, Some(link("z", 2, Some("2026-12-02/a.jsonl")))];
        let chains = chains_of(&paths, &links);
        assert_eq!(attempts(&chains[0]), [(1, 0), (2, 1)]);
    }

    #[test]
    fn a_link_to_nothing_loaded_is_a_chain_of_what_is_there() {
        let path = PathBuf::from("c/d/b.json");
        let only = link("q", 2, Some("d/gone.json"));
        let chains = assemble([(0, path.as_path(), Some(&only))]);
        assert_eq!(attempts(&chains[0]), [(2, 0)]);
    }

    #[test]
    fn the_previous_attempt_is_found_from_the_capture_folder() {
        let link = link("a", 2, Some("2026-12-01/x.jsonl"));
        assert_eq!(
            previous_capture(&link, Path::new("captures/2026-12-02/y.jsonl")),
            Some(Path::new("captures").join("2026-12-01").join("x.jsonl"))
        );
    }
}
