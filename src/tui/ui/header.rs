//! The header over the panes: where the capture came from and what happened.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::capture::{Capture, RecordedRequest};
use crate::compare::ValueDiff;
use crate::engine::{Cause, Layer, Outcome, RepairKind};
use crate::tui::app::{App, ChainPlace};
use crate::tui::detail::value_title;
use crate::tui::doc::Paint;
use crate::tui::sanitize::printable;
use crate::tui::theme::Theme;
use crate::tui::ui::fit::fit;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(entry) = app.selected_entry() else {
        return;
    };
    let theme = &app.theme;
    let request = app.selected_request();
    let lines = if entry.gone {
        // What the file said is history: say so before anything about it.
        [
            origin(&entry.capture, (request, app.selected_chain()), theme),
            Line::styled(
                "✗ gone: the file was deleted or moved",
                theme.paint(Paint::Bad),
            ),
            Line::styled(
                "it leaves the list with the next change; the panes show what it held",
                theme.label(),
            ),
        ]
    } else {
        let not_utf8 = entry
            .capture
            .text
            .as_ref()
            .err()
            .and_then(|u| u.bytes.as_deref());
        let third = match app.settings.checks.value_diff(&app.settings.root, entry) {
            Some(diff) => against_baseline(app, &diff),
            None => match not_utf8 {
                Some(bytes) => invalid_byte(bytes, theme),
                None => detail(&entry.outcome, theme),
            },
        };
        [
            origin(&entry.capture, (request, app.selected_chain()), theme),
            summary(&entry.outcome, theme),
            third,
        ]
    };
    let width = usize::from(area.width.saturating_sub(1));
    for (offset, line) in lines.into_iter().enumerate().take(usize::from(area.height)) {
        let row = Rect::new(
            area.x + 1,
            area.y + offset as u16,
            area.width.saturating_sub(1),
            1,
        );
        fit(line, width).render(row, buf);
    }
}

/// Source, provider, stop reason; for a recorded capture, the model asked for and the key
/// that shows the request, and its place in a repair chain with the key that walks it.
fn origin(
    capture: &Capture,
    (request, chain): (Option<&RecordedRequest>, Option<ChainPlace>),
    theme: &Theme,
) -> Line<'static> {
    let mut spans = vec![Span::styled(printable(&capture.source), theme.strong())];
    if let Some(request) = request {
        let model = request.model.as_deref().or(capture.model.as_deref());
        spans.push(label("  model ", theme));
        spans.push(Span::raw(model.map_or("(none)".to_string(), printable)));
        spans.push(label("  request ", theme));
        spans.push(Span::styled("r", theme.key_hint()));
    }
    if let Some(chain) = chain {
        let mut place = format!("  attempt {} of {}", chain.attempt, chain.of);
        if let Some(previous) = &chain.re_ask_of {
            place.push_str(&format!(" · re-ask of {}", printable(previous)));
        }
        spans.push(Span::styled(place, theme.paint(Paint::Literal)));
        spans.push(label(" ", theme));
        spans.push(Span::styled("c", theme.key_hint()));
    }
    if let Some(provider) = capture.provider {
        spans.push(label("  provider ", theme));
        spans.push(Span::raw(provider.as_str()));
    }
    spans.push(label("  stop ", theme));
    spans.push(Span::raw(
        capture
            .stop_reason
            .as_deref()
            .map_or("(none)".to_string(), printable),
    ));
    Line::from(spans)
}

/// Badge, layer and span, repairs, warnings.
fn summary(outcome: &Outcome, theme: &Theme) -> Line<'static> {
    let badge = outcome.badge();
    let mut spans = vec![Span::styled(
        if outcome.ok() {
            format!("✓ {badge}")
        } else {
            format!("✗ {badge}")
        },
        theme.badge(badge),
    )];
    if let Some(words) = tool_call_words(outcome) {
        spans.push(Span::styled(
            format!("  {words}"),
            theme.paint(Paint::Literal),
        ));
    }
    if let Some((start, end)) = outcome.span {
        spans.push(label("  span ", theme));
        spans.push(Span::raw(format!("{start}..{end}")));
    }
    spans.push(label("  repairs ", theme));
    spans.push(Span::raw(repairs(outcome)));
    spans.push(label("  warnings ", theme));
    let warnings: Vec<&str> = outcome.warning_kinds().iter().map(|k| k.as_str()).collect();
    spans.push(Span::raw(if warnings.is_empty() {
        "none".to_string()
    } else {
        warnings.join(", ")
    }));
    Line::from(spans)
}

/// The failure, exactly: kind, defect, line:column, message.
fn detail(outcome: &Outcome, theme: &Theme) -> Line<'static> {
    match &outcome.failure {
        Some(failure) => {
            let mut defect = failure
                .defect
                .map(|d| format!(" ({})", d.as_str()))
                .unwrap_or_default();
            if let Some(cause) = failure.cause {
                let words = tool_call_words(outcome).filter(|_| cause == Cause::ToolCallText);
                let cause = words.unwrap_or_else(|| cause.as_str().to_owned());
                defect.push_str(&format!(" cause {cause}"));
            }
            let listed = failure.defects.len() > 1
                || (failure.defect.is_none() && !failure.defects.is_empty());
            // The headline first, whole, on any width; then how many more there are
            // (the Decoded pane lists each), then the message, which may be cut.
            let every = if listed {
                let more = failure
                    .defects
                    .len()
                    .saturating_sub(usize::from(failure.defect.is_some()));
                format!(" +{more} more")
            } else {
                String::new()
            };
            Line::from(vec![
                Span::styled(
                    format!(
                        "{}{defect} at {}:{}{every}",
                        failure.kind.as_str(),
                        failure.line,
                        failure.column
                    ),
                    theme.paint(Paint::Bad),
                ),
                Span::raw("  "),
                Span::raw(printable(&failure.message)),
            ])
        }
        None => {
            let mut spans = Vec::new();
            if let Some(value) = &outcome.value {
                spans.push(label("value ", theme));
                spans.push(Span::raw(value_title(value)));
            }
            if outcome.layer == Some(Layer::Lenient) {
                spans.push(Span::styled(
                    "  accepted after meaning-changing fixes (lenient acceptance is on)",
                    theme.badge("lenient"),
                ));
            } else if let Some(warning) = outcome.warnings.first() {
                spans.push(Span::styled(
                    format!("  ! {}: ", warning.kind.as_str()),
                    theme.paint(Paint::Literal),
                ));
                spans.push(Span::raw(printable(&warning.message)));
            }
            Line::from(spans)
        }
    }
}

/// "not UTF-8: byte 0xE9 at offset 50": where the encoding first broke,
/// short enough for the header at 80 columns; the Raw pane shows every bad byte.
fn invalid_byte(bytes: &[u8], theme: &Theme) -> Line<'static> {
    let offset = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let byte = bytes.get(offset).copied().unwrap_or_default();
    Line::styled(
        format!("not UTF-8: byte 0x{byte:02X} at offset {offset}"),
        theme.paint(Paint::Bad),
    )
}

/// "≠ vs monday: ~$.vendor +$.note -$.po": an accepted value that differs from
/// the baseline's, path by path (`~` changed, `+` added, `-` removed; `?` says so).
fn against_baseline(app: &App, diff: &ValueDiff) -> Line<'static> {
    let name = app
        .settings
        .checks
        .baseline
        .as_deref()
        .map(|(path, _)| printable(&path.to_string_lossy()))
        .unwrap_or_default();
    Line::from(vec![
        Span::styled(format!("≠ vs {name}: "), app.theme.paint(Paint::Literal)),
        Span::raw(printable(&diff.marked(8))),
    ])
}

/// "tool call as text (hermes)": the serving layer left the model's tool call in the text.
fn tool_call_words(outcome: &Outcome) -> Option<String> {
    let call = outcome.tool_call.as_ref()?;
    Some(format!("tool call as text ({})", call.dialect.as_str()))
}

/// "raw-control-char ×2, escaped-backtick" or "none".
fn repairs(outcome: &Outcome) -> String {
    let mut counts: Vec<(RepairKind, usize)> = Vec::new();
    for repair in &outcome.repairs {
        match counts.iter_mut().find(|(kind, _)| *kind == repair.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((repair.kind, 1)),
        }
    }
    if counts.is_empty() {
        return "none".to_string();
    }
    counts
        .iter()
        .map(|(kind, n)| {
            if *n == 1 {
                kind.as_str().to_string()
            } else {
                format!("{} ×{n}", kind.as_str())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn label(text: &'static str, theme: &Theme) -> Span<'static> {
    Span::styled(text, theme.label())
}
