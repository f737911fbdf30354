//! Any bytes, as text, through every option combination: never a panic, and
//! every offset the outcome reports stays inside the text, and the value as text agrees
//! with the value as a tree.
#![no_main]

use jxray::engine::{extract, Options, Pick, ValueForm};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let options = Options::default().with_accept_lenient(flags & 1 != 0).with_pick(if flags & 2 != 0 { Pick::Last } else { Pick::First }).with_stop_reason(match flags >> 2 & 3 {
            0 => None,
            1 => Some("stop".to_owned()),
            2 => Some("length".to_owned()),
            _ => Some("mystery".to_owned()),
        }).with_decode_stringified(flags & 16 != 0).with_refused(flags & 32 != 0);
    let outcome = extract(&text, &options);
    assert_eq!(outcome.ok(), outcome.failure.is_none());
    if let Some((start, end)) = outcome.span {
        assert!(start <= end && end <= text.len());
    }
    for repair in &outcome.repairs {
        assert!(repair.offset < text.len());
    }
    if let Some(failure) = &outcome.failure {
        assert!(failure.offset <= text.len());
        assert!(failure.line >= 1 && failure.column >= 1);
        // Every defect listed is placed inside the text, in text order.
        for defect in &failure.defects {
            assert!(defect.offset <= text.len());
        }
        assert!(failure
            .defects
            .windows(2)
            .all(|pair| pair[0].offset <= pair[1].offset));
    }
    for attempt in &outcome.trace {
        assert!(attempt.span.0 <= attempt.span.1 && attempt.span.1 <= text.len());
    }
    // The value as compact text (what `check` asks for) decides exactly as the tree does,
    // and is what serializing the tree writes.
    let mut as_text = extract(
        &text,
        &options.clone().with_value_form(ValueForm::Text),
    );
    if let Some(json) = as_text.value_json.take() {
        let tree = outcome.value.as_ref().map(|value| value.to_string());
        assert_eq!(tree.as_deref(), Some(json.get()));
        as_text.value = outcome.value.clone();
    }
    assert_eq!(as_text, outcome);
});
