//! The file contract between `jxray record` and the readers: what the proxy names the files
//! it writes into a capture folder, and so what the readers, the watcher and the workbench
//! look for. Defined once here; both sides use it (a write-then-read test in the root crate
//! ties them).

/// The name ending of the request file written beside each capture (`STEM.request.json`
/// beside `STEM.json`).
pub const REQUEST_SUFFIX: &str = ".request.json";

/// Temporary and claim files start with this: hidden, never read as a capture, ignored by
/// the watcher wherever they appear. Files are written under such a name, then linked or
/// renamed into place, so a reader sees a whole file or none.
pub const TEMP_FILE_PREFIX: &str = ".jxray-tmp-";

/// The extensions a recorded capture may have, without the dot: a JSON response, a saved
/// event stream, NDJSON chunks, plain text, `bin` for a body that could not be decoded,
/// or `jsonl` for an attempt a repair loop wrote (`{"output", "stop_reason"}`).
pub const RECORDED_EXTENSIONS: [&str; 6] = ["json", "sse", "ndjson", "txt", "bin", "jsonl"];

/// The request file's name for the capture stem `stem`.
pub fn request_file_name(stem: &str) -> String {
    format!("{stem}{REQUEST_SUFFIX}")
}

/// The stem of a request file's name (`a` for `a.request.json`, in any letter case), when
/// it is one.
pub fn request_stem(name: &str) -> Option<&str> {
    let cut = name.len().checked_sub(REQUEST_SUFFIX.len())?;
    (name.is_char_boundary(cut) && name[cut..].eq_ignore_ascii_case(REQUEST_SUFFIX))
        .then(|| &name[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_name_and_its_stem_go_both_ways() {
        let name = request_file_name("14-03-22.118-gpt-4o");
        assert_eq!(name, "14-03-22.118-gpt-4o.request.json");
        assert_eq!(request_stem(&name), Some("14-03-22.118-gpt-4o"));
        assert_eq!(request_stem("A.REQUEST.JSON"), Some("A"));
        assert_eq!(request_stem("a.json"), None);
        assert_eq!(request_stem("é.json"), None);
    }
}
