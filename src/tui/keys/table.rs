//! The bindings themselves: one entry per command and mode set, in the
//! order the footer and the help list them.

use crossterm::event::KeyCode;

use super::{code, ctrl, key, Binding, Group, Key, KeyMode};
use crate::tui::action::Command;
use crate::tui::action::Command as C;

const NORMAL: &[KeyMode] = &[KeyMode::Normal];
const SCROLLING: &[KeyMode] = &[
    KeyMode::Normal,
    KeyMode::Help,
    KeyMode::Menu,
    KeyMode::Timeline,
];
const OVERLAYS: &[KeyMode] = &[
    KeyMode::Help,
    KeyMode::Menu,
    KeyMode::Prompt,
    KeyMode::Timeline,
];
const EVERYWHERE: &[KeyMode] = &[
    KeyMode::Normal,
    KeyMode::Help,
    KeyMode::Menu,
    KeyMode::Prompt,
    KeyMode::Timeline,
];
const TIMELINE: &[KeyMode] = &[KeyMode::Timeline];

const fn bind(
    command: Command,
    keys: &'static [Key],
    modes: &'static [KeyMode],
    group: Group,
    help: &'static str,
) -> Binding {
    Binding {
        command,
        keys,
        modes,
        group,
        help,
        hint: None,
        pair: None,
    }
}

const fn hinted(binding: Binding, hint: &'static str, pair: Option<Command>) -> Binding {
    Binding {
        hint: Some(hint),
        pair,
        ..binding
    }
}

/// Every binding. Order is the order of the footer and of each help section.
pub(crate) const BINDINGS: &[Binding] = &[
    hinted(
        bind(
            C::Down,
            &[key('j'), code(KeyCode::Down)],
            SCROLLING,
            Group::Move,
            "next capture, or scroll the focused pane down",
        ),
        "move",
        Some(C::Up),
    ),
    bind(
        C::Up,
        &[key('k'), code(KeyCode::Up)],
        SCROLLING,
        Group::Move,
        "previous capture, or scroll the focused pane up",
    ),
    bind(
        C::Top,
        &[key('g'), code(KeyCode::Home)],
        SCROLLING,
        Group::Move,
        "first capture / top of the pane",
    ),
    bind(
        C::Bottom,
        &[key('G'), code(KeyCode::End)],
        SCROLLING,
        Group::Move,
        "last capture / bottom of the pane",
    ),
    bind(
        C::PageDown,
        &[code(KeyCode::PageDown)],
        SCROLLING,
        Group::Move,
        "one page down",
    ),
    bind(
        C::PageUp,
        &[code(KeyCode::PageUp)],
        SCROLLING,
        Group::Move,
        "one page up",
    ),
    bind(
        C::HalfDown,
        &[ctrl('d')],
        SCROLLING,
        Group::Move,
        "half a page down",
    ),
    bind(
        C::HalfUp,
        &[ctrl('u')],
        SCROLLING,
        Group::Move,
        "half a page up",
    ),
    hinted(
        bind(
            C::NextFailure,
            &[key(']')],
            NORMAL,
            Group::Move,
            "next failing capture",
        ),
        "failure",
        Some(C::PrevFailure),
    ),
    bind(
        C::PrevFailure,
        &[key('[')],
        NORMAL,
        Group::Move,
        "previous failing capture",
    ),
    hinted(
        bind(
            C::NextPane,
            &[code(KeyCode::Tab)],
            NORMAL,
            Group::Panes,
            "focus the next pane (list → Raw → Normalized → Decoded)",
        ),
        "pane",
        None,
    ),
    bind(
        C::PrevPane,
        &[code(KeyCode::BackTab)],
        NORMAL,
        Group::Panes,
        "focus the previous pane",
    ),
    bind(
        C::FocusRaw,
        &[key('1')],
        NORMAL,
        Group::Panes,
        "focus Raw: the text exactly as it is",
    ),
    bind(
        C::FocusNormalized,
        &[key('2')],
        NORMAL,
        Group::Panes,
        "focus Normalized: the candidate the parser saw, repairs as a diff",
    ),
    bind(
        C::FocusDecoded,
        &[key('3')],
        NORMAL,
        Group::Panes,
        "focus Decoded: the value, warnings and the trace",
    ),
    bind(
        C::NarrowList,
        &[key('<')],
        NORMAL,
        Group::Panes,
        "narrow the capture list, down to hidden (the panes take the width)",
    ),
    bind(
        C::WidenList,
        &[key('>')],
        NORMAL,
        Group::Panes,
        "widen the capture list (again after hiding it to bring it back)",
    ),
    hinted(
        bind(
            C::Zoom,
            &[code(KeyCode::Enter)],
            NORMAL,
            Group::Panes,
            "zoom the focused pane (again to leave)",
        ),
        "zoom",
        None,
    ),
    hinted(
        bind(
            C::Search,
            &[key('/')],
            NORMAL,
            Group::Find,
            "search sources, raw texts and decoded values (smart case)",
        ),
        "search",
        None,
    ),
    bind(
        C::SearchNext,
        &[key('n')],
        NORMAL,
        Group::Find,
        "next capture matching the search",
    ),
    bind(
        C::SearchPrev,
        &[key('N')],
        NORMAL,
        Group::Find,
        "previous capture matching the search",
    ),
    hinted(
        bind(
            C::Filter,
            &[key('f')],
            NORMAL,
            Group::Find,
            "filter by outcome, defect, warning, cause, model or prompt",
        ),
        "filter",
        None,
    ),
    bind(
        C::Groups,
        &[key('b')],
        &[KeyMode::Normal, KeyMode::Menu],
        Group::Find,
        "groups by model, prompt, provider, folder, day (b: next key)",
    ),
    bind(
        C::Sort,
        &[key('t')],
        NORMAL,
        Group::Find,
        "sort by source, by outcome, or newest first",
    ),
    bind(
        C::Follow,
        &[key('F')],
        NORMAL,
        Group::Find,
        "follow the newest capture as captures arrive (a move stops)",
    ),
    hinted(
        bind(
            C::ToggleLenient,
            &[key('l')],
            NORMAL,
            Group::Act,
            "toggle lenient acceptance and re-extract everything",
        ),
        "lenient",
        None,
    ),
    bind(
        C::ToggleDecodeStringified,
        &[key('d')],
        NORMAL,
        Group::Act,
        "toggle decoding stringified JSON and re-extract everything",
    ),
    hinted(
        bind(
            C::Copy,
            &[key('y')],
            NORMAL,
            Group::Act,
            "copy the value, raw text, lenient reading or path (OSC 52)",
        ),
        "copy",
        None,
    ),
    hinted(
        bind(
            C::Edit,
            &[key('o')],
            NORMAL,
            Group::Act,
            "open the capture in $EDITOR, re-read it on return",
        ),
        "edit",
        None,
    ),
    hinted(
        bind(
            C::Save,
            &[key('s')],
            NORMAL,
            Group::Act,
            "save the capture as a fixture (name and expectation first)",
        ),
        "save",
        None,
    ),
    bind(
        C::SaveAll,
        &[key('S')],
        NORMAL,
        Group::Act,
        "save every capture in the list as a fixture",
    ),
    hinted(
        bind(
            C::ToggleWatch,
            &[key('w')],
            NORMAL,
            Group::Act,
            "watch the folder: re-read captures as files appear and change",
        ),
        "watch",
        None,
    ),
    bind(
        C::PauseWatch,
        &[key('p')],
        NORMAL,
        Group::Act,
        "pause watching (changes are held) or resume",
    ),
    bind(
        C::Request,
        &[key('r')],
        NORMAL,
        Group::Act,
        "show the request a recorded capture was asked with (jxray record)",
    ),
    bind(
        C::NextInChain,
        &[key('c')],
        NORMAL,
        Group::Move,
        "next attempt of this capture's repair chain, wrapping",
    ),
    bind(
        C::PointApp,
        &[key('a')],
        NORMAL,
        Group::Act,
        "show the lines that point your app at the proxy (record --tui)",
    ),
    bind(
        C::ProxyLog,
        &[key('L')],
        NORMAL,
        Group::Act,
        "show the proxy's log: the streams in flight, the last call not kept (record --tui)",
    ),
    bind(
        C::Timeline,
        &[key('T')],
        NORMAL,
        Group::Act,
        "show how a saved stream arrived, chunk by chunk, and when it was lost",
    ),
    hinted(
        bind(
            C::StepForward,
            &[code(KeyCode::Right), key('l')],
            TIMELINE,
            Group::Overlays,
            "in the arrival view: the next chunk (digits first step that many: 12 →)",
        ),
        "chunk",
        Some(C::StepBack),
    ),
    bind(
        C::StepBack,
        &[code(KeyCode::Left), key('h')],
        TIMELINE,
        Group::Overlays,
        "in the arrival view: the chunk before",
    ),
    hinted(
        bind(
            C::Help,
            &[key('?'), code(KeyCode::F(1))],
            &[KeyMode::Normal, KeyMode::Help],
            Group::General,
            "this help (again to close)",
        ),
        "help",
        None,
    ),
    bind(
        C::Back,
        &[code(KeyCode::Esc)],
        EVERYWHERE,
        Group::General,
        "close an overlay, leave zoom, or return to the list",
    ),
    hinted(
        bind(
            C::Quit,
            &[key('q'), ctrl('c')],
            NORMAL,
            Group::General,
            "quit (Ctrl-c quits from anywhere)",
        ),
        "quit",
        None,
    ),
    bind(C::Quit, &[ctrl('c')], OVERLAYS, Group::Overlays, "quit"),
    // The way out of an overlay, named in the key bar where `q quit` would be.
    hinted(
        bind(
            C::Back,
            &[key('q')],
            &[KeyMode::Help, KeyMode::Menu, KeyMode::Timeline],
            Group::Overlays,
            "close the overlay",
        ),
        "close",
        None,
    ),
    bind(
        C::NextChoice,
        &[code(KeyCode::Tab), code(KeyCode::Down)],
        &[KeyMode::Prompt],
        Group::Overlays,
        "next expectation in the save dialog",
    ),
    bind(
        C::PrevChoice,
        &[code(KeyCode::BackTab), code(KeyCode::Up)],
        &[KeyMode::Prompt],
        Group::Overlays,
        "previous expectation in the save dialog",
    ),
    bind(
        C::Copy,
        &[key('y')],
        &[KeyMode::Menu],
        Group::Overlays,
        "copy the chosen line of the recording panel, or the copy menu's choice",
    ),
    bind(
        C::Confirm,
        &[code(KeyCode::Enter)],
        &[KeyMode::Menu, KeyMode::Prompt],
        Group::Overlays,
        "apply the choice, the search or the save",
    ),
];
