//! The README's key table is generated from the key table itself.
//! `JXRAY_WRITE_DOCS=1 cargo test --test tui_docs` rewrites it.

use std::path::Path;

const BEGIN: &str = "<!-- keys: generated from src/tui/keys/table.rs -->\n";
const END: &str = "<!-- end of keys -->";

#[test]
fn the_documented_keys_are_the_key_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let doc = std::fs::read_to_string(&path).expect("README.md");
    let start = doc.find(BEGIN).expect("the begin marker") + BEGIN.len();
    let end = doc.find(END).expect("the end marker");
    let table = jxray::tui::help::markdown_keys();
    if doc[start..end] != table {
        if std::env::var_os("JXRAY_WRITE_DOCS").is_some() {
            let updated = format!("{}{table}{}", &doc[..start], &doc[end..]);
            std::fs::write(&path, updated).expect("write README.md");
        } else {
            panic!(
                "README.md's key table is out of date; run \
                 JXRAY_WRITE_DOCS=1 cargo test --test tui_docs\nexpected:\n{table}"
            );
        }
    }
}
