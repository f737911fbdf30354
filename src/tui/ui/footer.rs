//! The footer: key hints (or a prompt or a notice) over the layer mix.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::mix::{delta_text, Mix};
use crate::text::count_of;
use crate::tui::action::Command;
use crate::tui::app::{App, Filter, Overlay};
use crate::tui::keys::{hints, keys_label};
use crate::tui::sanitize::printable;
use crate::tui::ui::fit::fit;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if area.height == 0 {
        return;
    }
    let top = Rect::new(area.x, area.y, area.width, 1);
    let width = usize::from(area.width);
    if area.height == 1 {
        // One line: what the user is typing or was told, else the mix.
        let line = prompt_or_notice(app).unwrap_or_else(|| fitting_mix(app, width));
        fit(line, width).render(top, buf);
        return;
    }
    match prompt_or_notice(app) {
        // A notice (the first frame's schema offer, a save's result) keeps the way out
        // and the way to learn the rest at the right end.
        Some(line) if app.notice.is_some() && !matches!(app.overlay, Overlay::Search { .. }) => {
            let tail = key_hints(app, 0);
            let room = width.saturating_sub(tail.width());
            let style = line.style;
            let fitted = fit(line, room.saturating_sub(2)).spans.into_iter();
            let mut spans: Vec<Span> = fitted.map(|span| span.patch_style(style)).collect();
            let used: usize = spans.iter().map(|s| s.width()).sum();
            spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
            spans.extend(tail.spans);
            fit(Line::from(spans), width).render(top, buf);
        }
        Some(line) => fit(line, width).render(top, buf),
        None => fit(key_hints(app, width), width).render(top, buf),
    }
    let bottom = Rect::new(area.x, area.y + 1, area.width, 1);
    fit(fitting_mix(app, width), width).render(bottom, buf);
}

/// The mix line, in its short form when the long one does not fit (`39: dir 12 · fen 4
/// · trunc 7 │ watching Δ trunc 0→2`), so counts and deltas are abbreviated, not cut.
fn fitting_mix(app: &App, width: usize) -> Line<'static> {
    let line = mix(app);
    if line.width() <= width {
        return line;
    }
    let spans = line.spans.into_iter().map(|span| {
        // A path (the baseline's) is said as it is.
        if span.content.starts_with("vs ") {
            return span;
        }
        let text = abbreviate(&span.content);
        Span::styled(text, span.style)
    });
    Line::from(spans.collect::<Vec<_>>()).style(line.style)
}

/// The short form of each outcome word, as `?` lists them.
pub(super) const SHORT_WORDS: [(&str, &str); 9] = [
    ("unreadable", "unr"),
    ("truncated", "trunc"),
    ("no-json", "nojs"),
    ("invalid", "inv"),
    ("schema", "sch"),
    ("direct", "dir"),
    ("fenced", "fen"),
    ("scanned", "scan"),
    ("lenient", "len"),
];

/// `39 captures` → `39`, ` · since start: ` → ` Δ `, outcome words → their short form.
fn abbreviate(text: &str) -> String {
    let mut text = text
        .replace(" captures", "")
        .replace(" capture", "")
        .replace(" · since start: ", " Δ ")
        .replace("  ", " ");
    for (word, short) in SHORT_WORDS {
        text = text.replace(word, short);
    }
    text
}

fn prompt_or_notice(app: &App) -> Option<Line<'static>> {
    let theme = &app.theme;
    if let Overlay::Search { text, .. } = &app.overlay {
        let found = if app.query.is_some() {
            let count = app.entries.iter().filter(|e| e.matched).count();
            format!("   {count} matching")
        } else {
            String::new()
        };
        return Some(Line::from(vec![
            Span::styled("/", theme.key_hint()),
            Span::raw(printable(text)),
            Span::styled("▏", theme.strong()),
            Span::styled(found, theme.strong()),
            Span::styled("   Enter go  Esc cancel", theme.label()),
        ]));
    }
    let notice = app.notice.as_ref()?;
    let style = if notice.error {
        theme.error()
    } else {
        theme.notice()
    };
    Some(Line::styled(notice.text.clone(), style))
}

/// As many hints of the current mode as fit, always ending with help and quit
/// (the way out and the way to learn the rest).
fn key_hints(app: &App, width: usize) -> Line<'static> {
    let theme = &app.theme;
    let all = hints(app.mode());
    let always = |command: Command| keys_label(command, app.mode());
    let kept: Vec<String> = [Command::Help, Command::Quit]
        .into_iter()
        .map(always)
        .filter_map(|label| label.split(' ').next().map(str::to_string))
        .collect();
    let (last, first): (Vec<_>, Vec<_>) =
        all.into_iter().partition(|(keys, _)| kept.contains(keys));
    let size = |(keys, word): &(String, &str)| keys.chars().count() + 1 + word.len() + 2;
    let mut room = width.saturating_sub(last.iter().map(size).sum());
    let mut chosen = Vec::new();
    for hint in first {
        if size(&hint) > room {
            break;
        }
        room -= size(&hint);
        chosen.push(hint);
    }
    let mut spans = Vec::new();
    for (keys, word) in chosen.into_iter().chain(last) {
        spans.push(Span::styled(keys, theme.key_hint()));
        spans.push(Span::raw(format!(" {word}  ")));
    }
    Line::from(spans)
}

/// "12 captures: fenced 8 · truncated 3 · invalid 1 │ filter …: 4 │ loading 3/40 files".
fn mix(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let mut spans = mix_spans(app, &app.entries.mix_all);
    if app.entries.filter != Filter::All {
        let view = &app.entries.mix_view;
        spans.push(Span::styled(" │ ", theme.label()));
        spans.push(Span::styled(
            format!(
                "filter {}: {} shown",
                app.entries.filter.label(),
                view.total()
            ),
            theme.strong(),
        ));
        // A mixed filter ("any failure") gets its own breakdown.
        if view.parts().len() > 1 {
            spans.extend(mix_spans(app, view).into_iter().skip(1));
        }
    }
    if let Some(recording) = &app.settings.recording {
        spans.extend(recording_spans(app, recording.port));
    }
    if app.watch.active {
        spans.extend(watching(app));
    }
    if let Some((path, run)) = app.settings.checks.baseline.as_deref() {
        spans.extend(against_baseline(app, path, &run.mix));
    }
    if app.options.accept_lenient {
        spans.push(Span::styled(" │ ", theme.label()));
        spans.push(Span::styled("lenient on", theme.badge("lenient")));
    }
    if app.options.decode_stringified {
        spans.push(Span::styled(" │ ", theme.label()));
        spans.push(Span::styled("decoding stringified", theme.label()));
    }
    let progress = &app.progress;
    if progress.loading() {
        spans.push(Span::styled(" │ ", theme.label()));
        let text = match progress.files_total {
            None => "finding captures…".to_string(),
            Some(total) => format!(
                "loading {}/{total} files, {} captures",
                progress.files_done, progress.captures_read
            ),
        };
        spans.push(Span::styled(text, theme.strong()));
    }
    if progress.extracting() {
        spans.push(Span::styled(" │ ", theme.label()));
        spans.push(Span::styled(
            format!(
                "re-extracting {}/{}",
                progress.extract_done, progress.extract_total
            ),
            theme.strong(),
        ));
    }
    Line::from(spans)
}

/// "│ vs runs/monday (40): fenced 12→3  truncated 0→2": the baseline's mix and this one.
fn against_baseline(app: &App, path: &std::path::Path, old: &Mix) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let delta = delta_text(old, &app.entries.mix_all);
    let delta = if delta.is_empty() {
        "same mix".to_string()
    } else {
        delta
    };
    vec![
        Span::styled(" │ ", theme.label()),
        Span::styled(
            format!(
                "vs {} ({}): ",
                printable(&crate::text::shown_path(path).to_string()),
                old.total()
            ),
            theme.label(),
        ),
        Span::styled(delta, theme.strong()),
    ]
}

/// "│ recording :8788 · 3 calls · 1 not kept (L why)": the proxy beside the workbench.
fn recording_spans(app: &App, port: u16) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let proxy = &app.proxy;
    let mut spans = vec![
        Span::styled(" │ ", theme.label()),
        Span::styled(format!("recording :{port}"), theme.strong()),
        Span::styled(" · ", theme.label()),
        Span::raw(count_of(proxy.calls, "call")),
    ];
    if !proxy.in_flight.is_empty() {
        spans.push(Span::styled(" · ", theme.label()));
        let text = format!("{} in flight (L)", proxy.in_flight.len());
        spans.push(Span::styled(text, theme.strong()));
    }
    if proxy.stopped > 0 {
        spans.push(Span::styled(" · ", theme.label()));
        spans.push(Span::raw(format!("{} stopped", proxy.stopped)));
    }
    spans.push(Span::styled(" · ", theme.label()));
    if proxy.not_kept == 0 {
        spans.push(Span::raw("0 not kept"));
    } else {
        // Why is one key away.
        let text = format!("{} not kept (L why)", proxy.not_kept);
        spans.push(Span::styled(text, theme.error()));
    }
    spans
}

/// "│ watching · since start: fenced 12→3  truncated 0→2".
fn watching(app: &App) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let watch = &app.watch;
    let mut spans = vec![Span::styled(" │ ", theme.label())];
    if let Some(problem) = watch.root_problem {
        // Not "watching": nothing is, until the root is back.
        spans.push(Span::styled(problem, theme.error()));
        return spans;
    }
    let status = watch
        .status
        .clone()
        .unwrap_or_else(|| "watching".to_string());
    spans.push(Span::styled(status, theme.strong()));
    if watch.paused {
        spans.push(Span::styled(" (paused: p resumes)", theme.error()));
    }
    if let Some(baseline) = &watch.baseline {
        let delta = delta_text(baseline, &app.entries.mix_all);
        spans.push(Span::styled(" · since start: ", theme.label()));
        if delta.is_empty() {
            spans.push(Span::raw("no change"));
        } else {
            spans.push(Span::styled(delta, theme.strong()));
        }
    }
    spans
}

fn mix_spans(app: &App, mix: &Mix) -> Vec<Span<'static>> {
    let theme = &app.theme;
    let mut spans = vec![Span::raw(count_of(mix.total(), "capture"))];
    for (index, (badge, count)) in mix.parts().into_iter().enumerate() {
        spans.push(Span::styled(
            if index == 0 { ": " } else { " · " },
            theme.label(),
        ));
        spans.push(Span::styled(badge, theme.badge(badge)));
        spans.push(Span::raw(format!(" {count}")));
    }
    spans
}
