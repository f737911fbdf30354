//! TUI frame and selection cost: `cargo bench --bench tui_frame`.
//!
//! A frame is drawn into a 200×60 buffer (no terminal) with 10,000 captures in
//! the list, and with a 5 MB capture selected and scrolled to its middle. For
//! that capture: building and wrapping its three panes (on the builder thread),
//! what selecting it costs the UI thread (its preview), and going back to it
//! once built (its panes kept).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::Criterion;
use jxray::capture::Capture;
use jxray::config::ThemeName;
use jxray::engine::Options;
use jxray::tui::action::{Action, Command};
use jxray::tui::theme::Theme;
use jxray::tui::{update, App, TuiSettings};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const AREA: Rect = Rect::new(0, 0, 200, 60);

fn app(captures: Vec<Capture>) -> App {
    let settings = TuiSettings {
        root: PathBuf::from("captures"),
        fixtures: PathBuf::from("fixtures"),
        config_path: String::new(),
        mouse: false,
        watch: false,
        checks: Default::default(),
        editor: None,
        root_is_file: false,
        recording: None,
    };
    let mut app = App::new(
        settings,
        Theme::new(ThemeName::Dark, true),
        Options::default(),
        AREA,
    );
    app.load_now(captures);
    app
}

fn small(i: usize) -> Capture {
    let text = format!(
        "Here you go:\n```json\n{{\"ticket\": \"T-{i}\", \"items\": [1, 2, 3], \"note\": \"{}\"}}\n```\nAnything else?",
        "lorem ipsum ".repeat(i % 40)
    );
    Capture::from_text(format!("runs/{:02}/run-{i:05}.txt", i / 500), text)
}

/// About 5 MB: a pretty-printed array of records, with one raw newline to repair.
fn large() -> Capture {
    let mut text = String::from("```json\n[\n");
    let mut i = 0;
    while text.len() < 5 * 1024 * 1024 {
        text.push_str(&format!(
            "  {{\"id\": {i}, \"name\": \"record {i}\", \"body\": \"{}\"}},\n",
            "the quick brown fox jumps over the lazy dog ".repeat(3)
        ));
        i += 1;
    }
    text.push_str("  {\"id\": -1, \"body\": \"raw\nnewline\"}\n]\n```\n");
    Capture::from_text("big.txt", text)
}

fn draw(app: &App) -> Buffer {
    let mut buffer = Buffer::empty(AREA);
    jxray::tui::ui::draw(app, AREA, &mut buffer);
    buffer
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();

    let mut list = app((0..10_000).map(small).collect());
    for _ in 0..5_000 {
        update(&mut list, Action::Command(Command::Down));
    }
    criterion.bench_function("frame, 10,000 captures", |b| {
        b.iter(|| black_box(draw(&list)))
    });

    let mut big = app(vec![large(), small(1)]);
    // Its panes are built off the UI thread; here the build runs in line.
    let job = big
        .big
        .take_job()
        .expect("the 5 MB capture's build is asked for");
    criterion.bench_function("build the 5 MB capture's panes (its builder thread)", |b| {
        b.iter(|| black_box(job.clone().run()))
    });
    update(&mut big, Action::DetailBuilt(Box::new(job.run())));
    update(&mut big, Action::Command(Command::FocusRaw));
    for _ in 0..200 {
        update(&mut big, Action::Command(Command::PageDown));
    }
    criterion.bench_function("frame, 5 MB capture scrolled", |b| {
        b.iter(|| black_box(draw(&big)))
    });

    criterion.bench_function("go back to the 5 MB capture (its panes kept)", |b| {
        b.iter(|| {
            update(&mut big, Action::Command(Command::Back));
            update(&mut big, Action::Command(Command::Bottom));
            update(&mut big, Action::Command(Command::Top));
            black_box(big.detail.is_some())
        })
    });

    let mut fresh = app(vec![small(1), large()]);
    let mut searches = 0;
    criterion.bench_function(
        "select the 5 MB capture on the UI thread (its preview)",
        |b| {
            b.iter(|| {
                // A new search each time: nothing kept matches, so a preview is shown.
                searches += 1;
                fresh.query = jxray::tui::search::Query::new(&format!("x{searches}"));
                update(&mut fresh, Action::Command(Command::Bottom));
                update(&mut fresh, Action::Command(Command::Top));
                black_box(fresh.detail.is_some())
            })
        },
    );
    criterion.final_summary();
}
