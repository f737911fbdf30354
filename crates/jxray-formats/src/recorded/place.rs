//! Where files go when their name is taken: the plan every never-overwrite writer follows
//! (the capture writer of `jxray record`, the repair loops and fixture saving through it,
//! and the npm package's own writer). The writers do the I/O; the names are decided here.
//!
//! Each file is written to a hidden temporary file ([`super::TEMP_FILE_PREFIX`]) in the same
//! folder and linked (or moved without replacing) to its name; a taken name is never
//! replaced: the next candidate stem is tried, for all of one stem's files together.

/// How many candidate stems are tried (`STEM`, `STEM-2`, … `STEM-10000`) before giving up.
pub const GIVE_UP_AFTER: usize = 10_000;

/// The candidate stems for `stem`, in order: `stem` itself, then `stem-2`, `stem-3`, … up
/// to `stem-GIVE_UP_AFTER`.
pub fn candidates(stem: &str) -> impl Iterator<Item = String> + '_ {
    (1..=GIVE_UP_AFTER).filter_map(move |number| candidate(stem, number))
}

/// The `number`th candidate for `stem` (from 1); none past [`GIVE_UP_AFTER`].
pub fn candidate(stem: &str, number: usize) -> Option<String> {
    match number {
        0 => None,
        1 => Some(stem.to_string()),
        n if n <= GIVE_UP_AFTER => Some(format!("{stem}-{n}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_candidates_go_from_the_stem_to_the_limit() {
        let all: Vec<String> = candidates("a").collect();
        assert_eq!(all.len(), GIVE_UP_AFTER);
        assert_eq!(&all[..3], ["a", "a-2", "a-3"]);
        assert_eq!(all.last().map(String::as_str), Some("a-10000"));
        assert_eq!(candidate("a", 0), None);
        assert_eq!(candidate("a", GIVE_UP_AFTER + 1), None);
    }
}
