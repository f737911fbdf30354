//! The page around the rows: the counts, a bar a group, the filters, the table, and the
//! one script, allowed by its digest in the page's Content-Security-Policy (nothing else
//! may run or load, whatever a capture holds).

use std::fmt::Write as _;
use std::io::{self, Write};

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::escape::{attribute, escaped};
use super::ALL;
use crate::engine::{FailureKind, Layer};
use crate::report::groups::{failed_share, mix_cells};
use crate::report::Summary;
use crate::text::count_of;

const SCRIPT: &str = include_str!("report.js");
const STYLE: &str = include_str!("report.css");

pub(super) struct Page<'a> {
    pub(crate) title: &'a str,
    pub(crate) summary: &'a Summary,
    /// The rows kept, as HTML.
    pub(crate) rows: Vec<String>,
    /// How many captures had a row, kept or not.
    pub(crate) listed: usize,
}

impl Page<'_> {
    pub(super) fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut head = String::with_capacity(16 * 1024);
        self.head(&mut head);
        self.counts(&mut head);
        self.chains(&mut head);
        self.groups(&mut head);
        self.filters(&mut head);
        out.write_all(head.as_bytes())?;
        for row in &self.rows {
            out.write_all(row.as_bytes())?;
        }
        write!(
            out,
            "</table>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
        )
    }

    fn head(&self, html: &mut String) {
        let title = escaped(self.title);
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'; script-src '{}'; base-uri 'none'; form-action 'none'\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n",
            script_hash()
        );
    }

    /// The whole run's counts, each cell named by `data-count` (its key in
    /// `check --format json`'s summary).
    fn counts(&self, html: &mut String) {
        let summary = self.summary;
        let _ = write!(
            html,
            "<p class=\"total\"><span data-count=\"total\">{}</span> captures: \
             <span data-count=\"ok\">{}</span> ok, <span data-count=\"failed\">{}</span> failed</p>\n\
             <table class=\"mix\"><thead><tr><th>outcome</th><th class=\"num\">count</th>\
             <th class=\"num\">share</th></tr></thead><tbody>\n",
            summary.total(),
            summary.ok(),
            summary.failed()
        );
        for (word, count) in mix_cells(summary) {
            let _ = writeln!(
                html,
                "<tr><th><i class=\"k-{word}\"></i>{word}</th><td class=\"num\" data-count=\"{word}\">{count}</td>\
                 <td class=\"num\">{:.1}%</td></tr>",
                summary.share(count)
            );
        }
        html.push_str("</tbody></table>\n");
    }

    /// The repair chains counted, as the text report's line says them, when a request was
    /// re-asked.
    fn chains(&self, html: &mut String) {
        if let Some(line) = self.summary.early().and_then(|early| early.line()) {
            let _ = writeln!(html, "<p class=\"early\">{}</p>", escaped(&line));
        }
        if let Some(chains) = self.summary.chains() {
            let _ = writeln!(html, "<p class=\"chains\">{}</p>", escaped(&chains.line()));
        }
    }

    /// A line a group, the worst first: its name (a filter), its counts, its mix as a bar.
    fn groups(&self, html: &mut String) {
        let single = [(ALL, self.summary)];
        let (heading, groups) = match self.summary.groups() {
            Some(groups) => (
                format!("By {}, the worst first", groups.by().as_str()),
                groups.worst_first(),
            ),
            None => ("All captures".to_string(), single.to_vec()),
        };
        let _ = writeln!(html, "<h2>{heading}</h2>\n<div class=\"groups\">");
        for (name, summary) in groups {
            let _ = write!(
                html,
                "<div class=\"group-line\" data-group=\"{}\"><button data-filter=\"group\" \
                 data-value=\"{}\">{}</button><span>{}, <span data-count=\"failed\">{}</span> \
                 failed ({:.1}%)</span><div class=\"bar\">",
                attribute(name),
                attribute(name),
                escaped(name),
                count_of(summary.total(), "capture"),
                summary.failed(),
                failed_share(summary)
            );
            for (word, count) in mix_cells(summary) {
                if count > 0 {
                    let share = summary.share(count);
                    let _ = write!(
                        html,
                        "<span class=\"seg k-{word}\" style=\"width:{share:.3}%\" \
                         title=\"{word} {count} ({share:.1}%)\" data-count=\"{word}\" \
                         data-value=\"{count}\"></span>"
                    );
                }
            }
            html.push_str("</div></div>\n");
        }
        html.push_str("</div>\n<p class=\"legend\">");
        for (word, _) in mix_cells(self.summary) {
            let _ = write!(html, "<span><i class=\"k-{word}\"></i>{word}</span>");
        }
        html.push_str("</p>\n");
    }

    /// The filters, the note on sampling, and the table's head.
    fn filters(&self, html: &mut String) {
        html.push_str("<h2>Failures and drift</h2>\n");
        let kept = self.rows.len();
        let note = if kept < self.listed {
            format!(
                "Showing {kept} of the {} captures that failed or drifted from plain JSON: an \
                 even sample (at most {} rows are listed). The counts above are of every \
                 capture; run with <code>--format jsonl</code> for every one.",
                self.listed,
                super::ROW_CAP
            )
        } else {
            format!(
                "Every capture that failed or drifted from plain JSON ({}): direct JSON is \
                 not listed.",
                self.listed
            )
        };
        let _ = writeln!(html, "<p class=\"note\" id=\"sampled\">{note}</p>");
        html.push_str("<div class=\"filters\">\n<div>group: <button data-filter=\"group\" data-value=\"\">all</button>");
        let names: Vec<&str> = match self.summary.groups() {
            Some(groups) => groups.worst_first().into_iter().map(|(n, _)| n).collect(),
            None => vec![ALL],
        };
        for name in names {
            let _ = write!(
                html,
                "<button data-filter=\"group\" data-value=\"{}\">{}</button>",
                attribute(name),
                escaped(name)
            );
        }
        let chips = |html: &mut String, filter: &str, words: &mut dyn Iterator<Item = &str>| {
            let _ = write!(
                html,
                "</div>\n<div>{filter}: <button data-filter=\"{filter}\" data-value=\"\">all</button>"
            );
            for word in words {
                let _ = write!(
                    html,
                    "<button data-filter=\"{filter}\" data-value=\"{word}\">{word}</button>"
                );
            }
        };
        chips(html, "layer", &mut Layer::ALL.iter().map(|l| l.as_str()));
        chips(
            html,
            "failure",
            &mut FailureKind::ALL.iter().map(|k| k.as_str()),
        );
        html.push_str(
            "</div>\n</div>\n<p id=\"shown\"></p>\n<table class=\"rows\"><thead><tr><th>group</th>\
             <th>source</th><th>outcome</th><th>defect</th><th>cause</th><th>line:col</th>\
             <th>what was found</th><th>advice</th></tr></thead>\n",
        );
    }
}

/// `sha256-…` of the page's script, as a Content-Security-Policy source.
fn script_hash() -> String {
    let digest = Sha256::digest(SCRIPT.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}
