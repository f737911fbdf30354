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
use crate::tui::sanitize::{display_width, printable};
use crate::tui::theme::Theme;
use crate::tui::ui::fit::fit;
use crate::tui::ui::list::shorten_left;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(entry) = app.selected_entry() else {
        return;
    };
    let theme = &app.theme;
    let request = app.selected_request();
    let width = usize::from(area.width.saturating_sub(1));
    let lines = if entry.gone {
        // What the file said is history: say so before anything about it.
        [
            origin(
                &entry.capture,
                (request, app.selected_chain()),
                theme,
                width,
            ),
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
            origin(
                &entry.capture,
                (request, app.selected_chain()),
                theme,
                width,
            ),
            summary(&entry.outcome, theme),
            third,
        ]
    };
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

/// Columns the source keeps however short the header is.
const SOURCE_AT_LEAST: usize = 8;

/// Source, provider, stop reason; for a recorded capture, the model asked for and the key
/// that shows the request, and its place in a repair chain with the key that walks it.
/// Short of `width`, the parts a reader can do without go first (the attempt re-asked, then
/// provider, stop reason and model), then the front of the source, so the keys `r` and
/// `c` stay on screen.
fn origin(
    capture: &Capture,
    (request, chain): (Option<&RecordedRequest>, Option<ChainPlace>),
    theme: &Theme,
    width: usize,
) -> Line<'static> {
    // (part, the order it goes in when room is short: 5 first, then 4, 3, 2; 0 never)
    let mut parts: Vec<(Vec<Span<'static>>, u8)> = vec![(
        vec![Span::styled(printable(&capture.source), theme.strong())],
        0,
    )];
    if let Some(request) = request {
        let model = request.model.as_deref().or(capture.model.as_deref());
        parts.push((
            vec![
                label("  model ", theme),
                Span::raw(model.map_or("(none)".to_string(), printable)),
            ],
            2,
        ));
        parts.push((
            vec![
                label("  request ", theme),
                Span::styled("r", theme.key_hint()),
            ],
            0,
        ));
    }
    let keyed = request.is_some() || chain.is_some();
    if let Some(chain) = chain {
        parts.push((
            vec![Span::styled(
                format!("  attempt {} of {}", chain.attempt, chain.of),
                theme.paint(Paint::Literal),
            )],
            0,
        ));
        if let Some(previous) = &chain.re_ask_of {
            parts.push((
                vec![Span::styled(
                    format!(" · re-ask of {}", printable(previous)),
                    theme.paint(Paint::Literal),
                )],
                5,
            ));
        }
        parts.push((
            vec![label(" ", theme), Span::styled("c", theme.key_hint())],
            0,
        ));
    }
    if let Some(provider) = capture.provider {
        parts.push((
            vec![label("  provider ", theme), Span::raw(provider.as_str())],
            4,
        ));
    }
    let stop = capture
        .stop_reason
        .as_deref()
        .map_or("(none)".to_string(), printable);
    parts.push((vec![label("  stop ", theme), Span::raw(stop)], 3));
    // A line without keys is cut as any other, its end marked `…`.
    if keyed {
        keep_the_keys(&mut parts, width);
    }
    Line::from(
        parts
            .into_iter()
            .flat_map(|(spans, _)| spans)
            .collect::<Vec<_>>(),
    )
}

/// Drop the parts a reader can do without, in their order, while the line is wider than
/// `width`; then cut the front of the source, down to [`SOURCE_AT_LEAST`] columns.
fn keep_the_keys(parts: &mut Vec<(Vec<Span<'static>>, u8)>, width: usize) {
    let wide = |parts: &[(Vec<Span<'static>>, u8)]| -> usize {
        parts
            .iter()
            .flat_map(|(spans, _)| spans)
            .map(|span| display_width(&span.content))
            .sum()
    };
    for dropped in (2..=5).rev() {
        if wide(parts) <= width {
            break;
        }
        parts.retain(|(_, order)| *order != dropped);
    }
    // Still short: the source keeps its end (the list beside shows it too), the keys stay.
    let rest = wide(&parts[1..]);
    let source = &mut parts[0].0[0];
    if rest + display_width(&source.content) > width {
        let room = width.saturating_sub(rest).max(SOURCE_AT_LEAST);
        source.content = shorten_left(&source.content, room).into();
    }
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
        .map(|(path, _)| printable(&crate::text::shown_path(path).to_string()))
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
