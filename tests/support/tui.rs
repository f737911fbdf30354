//! Shared helpers for the TUI tests: an app filled with real engine outcomes,
//! and screens rendered to text (with or without style markers).

#![allow(dead_code)]

use std::path::PathBuf;

use jxray::capture::Capture;
use jxray::config::ThemeName;
use jxray::engine::Options;
use jxray::tui::action::{Action, Command, Effect};
use jxray::tui::theme::Theme;
use jxray::tui::{update, App, Checks, TuiSettings};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::Terminal;

pub fn settings() -> TuiSettings {
    TuiSettings {
        root: PathBuf::from("captures"),
        fixtures: PathBuf::from("fixtures"),
        config_path: "~/.config/jxray/config.toml".to_string(),
        mouse: false,
        watch: false,
        checks: Default::default(),
        editor: None,
        root_is_file: false,
        recording: None,
    }
}

/// A capture of `text` named `source`, with a stop reason.
pub fn capture(source: &str, text: &str, stop_reason: Option<&str>) -> Capture {
    let mut capture = Capture::from_text(source, text);
    capture.stop_reason = stop_reason.map(str::to_string);
    capture
}

/// An app of `width`×`height` that has loaded `captures` with the real engine.
pub fn app_with(captures: Vec<Capture>, width: u16, height: u16) -> App {
    let mut app = App::new(
        settings(),
        Theme::new(ThemeName::Dark, true),
        Options::default(),
        Rect::new(0, 0, width, height),
    );
    app.load_now(captures);
    app
}

/// Like [`app_with`], with a schema and a baseline to check against.
pub fn app_with_checks(captures: Vec<Capture>, checks: Checks, width: u16, height: u16) -> App {
    let mut app = App::new(
        TuiSettings {
            checks,
            ..settings()
        },
        Theme::new(ThemeName::Dark, true),
        Options::default(),
        Rect::new(0, 0, width, height),
    );
    app.load_now(captures);
    app
}

/// The screen as plain text, drawn through ratatui's `TestBackend`.
/// Run `commands` as if their keys were pressed.
pub fn run(app: &mut App, commands: &[Command]) {
    run_effects(app, commands);
}

/// Run `commands`, performing at once the effects whose answer the app waits for (the
/// fixtures folder's index, as the event loop does in the background); every effect is
/// returned.
pub fn run_effects(app: &mut App, commands: &[Command]) -> Vec<Effect> {
    let mut effects = Vec::new();
    for command in commands {
        for effect in update(app, Action::Command(*command)) {
            if let Effect::IndexFixtures { dir } = &effect {
                update(app, jxray::tui::loader::fixtures_found(dir));
            }
            effects.push(effect);
        }
    }
    app.settle();
    effects
}

pub fn screen(app: &App) -> String {
    let buffer = draw(app);
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        for x in 0..buffer.area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

pub fn draw(app: &App) -> Buffer {
    let backend = TestBackend::new(app.area.width, app.area.height);
    let mut terminal = Terminal::new(backend).expect("test terminal");
    terminal
        .draw(|frame| jxray::tui::ui::render(app, frame))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The screen with styles written as markers where they change: `⟦green,bold⟧`.
/// Colour carries meaning in places (badges, the failure, diffs); this makes it
/// reviewable in a snapshot.
pub fn styled_screen(app: &App) -> String {
    let buffer = draw(app);
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        let mut current = Style::new();
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            let style = cell.style();
            let style = Style::new()
                .fg(style.fg.unwrap_or(Color::Reset))
                .bg(style.bg.unwrap_or(Color::Reset))
                .add_modifier(style.add_modifier);
            if style != current {
                line.push_str(&marker(style));
                current = style;
            }
            line.push_str(cell.symbol());
        }
        if current != Style::new() {
            line.push_str("⟦⟧");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn marker(style: Style) -> String {
    let mut parts = Vec::new();
    if let Some(fg) = style.fg.filter(|c| *c != Color::Reset) {
        parts.push(format!("{fg:?}").to_lowercase());
    }
    if let Some(bg) = style.bg.filter(|c| *c != Color::Reset) {
        parts.push(format!("on-{bg:?}").to_lowercase());
    }
    for (modifier, name) in [
        (Modifier::BOLD, "bold"),
        (Modifier::DIM, "dim"),
        (Modifier::ITALIC, "italic"),
        (Modifier::UNDERLINED, "underline"),
        (Modifier::REVERSED, "reverse"),
        (Modifier::CROSSED_OUT, "strike"),
    ] {
        if style.add_modifier.contains(modifier) {
            parts.push(name.to_string());
        }
    }
    format!("⟦{}⟧", parts.join(","))
}
