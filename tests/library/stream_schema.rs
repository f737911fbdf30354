//! A schema judging a stream's items as they close (contract §7): what it says early is
//! never a false alarm — every finding is one the whole value, judged at the end by the
//! whole schema, also has — and it is said before the end, at whatever chunking.

use std::collections::BTreeSet;
use std::sync::Arc;

use jxray::engine::{Extractor, Options, SignalKind};
use jxray::schema::Schema;
use jxray_formats::judge;
use proptest::prelude::*;
use serde_json::{json, Value};

fn schema() -> Arc<Schema> {
    let document = json!({
        "$defs": {"Line": {
            "type": "object",
            "required": ["sku", "qty"],
            "properties": {
                "sku": {"type": "string", "pattern": "^[A-Z]+$"},
                "qty": {"type": "integer", "minimum": 1},
                "tags": {"type": "array", "items": {"enum": ["new", "sale"]}, "maxItems": 2}
            },
            "additionalProperties": false
        }},
        "type": "object",
        "required": ["lines"],
        "properties": {
            "lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}},
            "note": {"type": "string", "maxLength": 8}
        },
        "patternProperties": {"^x-": {"type": "integer"}}
    });
    Arc::new(Schema::from_value(&document, "test").unwrap())
}

/// Lines that keep or break each rule.
fn line() -> impl Strategy<Value = Value> {
    let sku = prop_oneof![Just(json!("AB")), Just(json!("ab")), Just(json!(7))];
    let qty = prop_oneof![
        Just(json!(2)),
        Just(json!(0)),
        Just(json!(1.5)),
        Just(json!("2"))
    ];
    let tags = prop::collection::vec(prop_oneof![Just("new"), Just("sale"), Just("old")], 0..4);
    (sku, qty, tags, any::<bool>(), any::<bool>()).prop_map(|(sku, qty, tags, drop_qty, extra)| {
        let mut line = json!({"sku": sku, "qty": qty, "tags": tags});
        if drop_qty {
            line.as_object_mut().unwrap().remove("qty");
        }
        if extra {
            line["extra"] = json!(true);
        }
        line
    })
}

fn order() -> impl Strategy<Value = Value> {
    let note = prop_oneof![Just(None), Just(Some("short")), Just(Some("far too long"))];
    let pattern = prop_oneof![Just(None), Just(Some(json!(1))), Just(Some(json!("one")))];
    (prop::collection::vec(line(), 0..5), note, pattern).prop_map(|(lines, note, pattern)| {
        let mut order = json!({"lines": lines});
        if let Some(note) = note {
            order["note"] = json!(note);
        }
        if let Some(pattern) = pattern {
            order["x-count"] = pattern;
        }
        order
    })
}

proptest! {
    #[test]
    fn what_is_said_early_the_end_also_finds(order in order(), size in 1usize..40, fenced in any::<bool>()) {
        let schema = schema();
        let body = serde_json::to_string(&order).unwrap();
        let text = if fenced { format!("Here:\n```json\n{body}\n```\n") } else { body.clone() };
        let mut extractor = Extractor::new(Options::default())
            .with_validator(judge::items(Arc::clone(&schema) as _));
        let mut early = BTreeSet::new();
        for chunk in text.as_bytes().chunks(size) {
            for signal in extractor.feed(chunk).signals {
                prop_assert_eq!(signal.kind, SignalKind::Schema);
                // Certain where it is said: the byte has arrived.
                prop_assert!(signal.byte < text.len());
                early.insert(signal.path.unwrap());
            }
        }
        let whole: BTreeSet<String> =
            schema.violations(&order).into_iter().map(|v| v.pointer).collect();
        prop_assert!(early.is_subset(&whole), "early {:?} whole {:?}", early, whole);
        // The whole value closed before the end: every finding was said early.
        prop_assert_eq!(&early, &whole);
        prop_assert_eq!(extractor.end(None).value, Some(order));
    }
}
