//! The request overlay's content (`r`): what a recorded capture was asked with, so the
//! prompt that produced an output is one key away.

use crate::capture::RecordedRequest;

use super::help::HelpLine;
use super::sanitize::printable;

/// Every line of the overlay, text wrapped at `width` columns.
pub(crate) fn lines(request: &RecordedRequest, width: usize) -> Vec<HelpLine> {
    let mut lines = Vec::new();
    let mut section = |heading: &'static str, text: Option<&str>| {
        let Some(text) = text else {
            return;
        };
        lines.push(HelpLine::Heading(heading));
        for line in text.lines() {
            wrap(&printable(line), width.max(8), &mut lines);
        }
        lines.push(HelpLine::Blank);
    };
    section("Call", Some(&request.call));
    section("Model", request.model.as_deref());
    section("System prompt", request.system.as_deref());
    section("Last user message", request.last_user.as_deref());
    section("Response format asked for", request.format.as_deref());
    section("Tools offered", request.tools.as_deref());
    section("Body", request.body_note.as_deref());
    let file = crate::text::shown_path(&request.path);
    section("Request file", Some(&format!("{file}\n{}", request.digest)));
    lines
}

/// One logical line as overlay lines of at most `width` characters.
pub(crate) fn wrap(line: &str, width: usize, out: &mut Vec<HelpLine>) {
    let chars: Vec<char> = line.chars().collect();
    if chars.is_empty() {
        out.push(HelpLine::Text(String::new()));
    }
    for piece in chars.chunks(width) {
        out.push(HelpLine::Text(piece.iter().collect()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_shows_prompt_format_and_digest_wrapped() {
        let request = RecordedRequest {
            path: "d/x.request.json".into(),
            digest: "sha256:ab".into(),
            model: Some("gpt-4o-mini".into()),
            call: "POST /openai/chat/completions".into(),
            system: Some("Answer\u{1b}[31m in JSON.".into()),
            last_user: Some("a".repeat(25)),
            format: None,
            format_asks: None,
            tools: None,
            json_mode: None,
            tools_without_parameters: Vec::new(),
            body_note: None,
            chain: None,
            asked: Default::default(),
            arrival: None,
        };
        let lines = lines(&request, 10);
        assert!(lines.contains(&HelpLine::Heading("System prompt")));
        assert!(!lines.contains(&HelpLine::Heading("Response format asked for")));
        let texts: Vec<String> = lines
            .iter()
            .filter_map(|line| match line {
                HelpLine::Text(text) => Some(text.clone()),
                _ => None,
            })
            .collect();
        assert!(texts
            .iter()
            .all(|t| t.chars().count() <= 10 && !t.contains('\u{1b}')));
        let user: Vec<&String> = texts
            .iter()
            .filter(|t| t.chars().all(|c| c == 'a'))
            .collect();
        assert_eq!(
            user,
            ["a".repeat(10), "a".repeat(10), "a".repeat(5)]
                .iter()
                .collect::<Vec<_>>()
        );
        assert!(texts.contains(&"sha256:ab".to_string()));
    }
}
