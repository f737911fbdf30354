mod support;
use support::*;

#[test]
fn scratch() {
    let caps = vec![
        capture("a-fenced.txt", "Here is the data:\n```json\n{\"city\": \"Paris\", \"n\": [1, 2.5, true, null]}\n```\nHope that helps!", Some("stop")),
        capture("b-repaired.txt", "{\"text\": \"line one\nline two\tand `tick\\`\"}", None),
        capture("c-truncated.txt", "```json\n{\"items\": [\n  {\"id\": 1, \"name\": \"alpha\"},\n  {\"id\": 2, \"name\": \"be", Some("length")),
        capture("d-invalid.txt", "Sure! {'name': 'Ada', \"tags\": [\"x\", \"y\",], active: True}", None),
        capture("e-nojson.txt", "I cannot help with that.", None),
    ];
    let mut app = app_with(caps, 140, 30);
    for i in 0..5 {
        app.cursor = i; app.selected = app.entries.at(i).map(|e| e.id); app.settle();
        println!("{}", screen(&app));
    }
    let mut app2 = app_with(vec![capture("d-invalid.txt", "Sure! {'name': 'Ada', \"tags\": [\"x\", \"y\",], active: True}", None)], 60, 20);
    app2.settle();
    println!("{}", screen(&app2));
}
