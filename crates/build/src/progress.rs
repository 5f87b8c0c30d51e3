//! What `gametab build` shows on a terminal while it works: one line per
//! phase (each game's tables, the Murder Plan's days, the endgames solved
//! or taken from the cache, the check of the written set, the plots), drawn
//! together by indicatif's `MultiProgress` on standard error. Nothing is
//! drawn when standard error is not a terminal (a log file, CI) or with
//! `--quiet`: the bars are then hidden and cost nothing.

use std::borrow::Cow;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The build's progress lines, or none.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    multi: Option<MultiProgress>,
}

impl Progress {
    /// Progress lines on standard error when `show` and it is a terminal.
    pub fn new(show: bool) -> Progress {
        let target = ProgressDrawTarget::stderr();
        Progress {
            multi: (show && !target.is_hidden()).then(|| MultiProgress::with_draw_target(target)),
        }
    }

    /// No progress lines.
    pub fn hidden() -> Progress {
        Progress { multi: None }
    }

    /// Whether lines are drawn.
    pub fn is_shown(&self) -> bool {
        self.multi.is_some()
    }

    /// A phase counting to `len` of `unit` (a bar; [`ProgressBar::set_length`]
    /// may change `len`), or, with no unit, a phase of no count (a
    /// spinner): `phase` on the left, its message after the count.
    pub fn phase(&self, phase: &'static str, len: u64, unit: &'static str) -> ProgressBar {
        let Some(multi) = &self.multi else {
            return ProgressBar::hidden();
        };
        let template = if unit.is_empty() {
            "{spinner} {prefix:<13} {msg} {elapsed}".to_string()
        } else {
            format!("  {{prefix:<13}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}} {{elapsed}}")
        };
        let style = ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> ");
        let bar = multi.add(ProgressBar::new(len).with_style(style).with_prefix(phase));
        if unit.is_empty() {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        bar
    }

    /// A phase's end: the bar stays on screen with `message`.
    pub fn done(bar: &ProgressBar, message: impl Into<Cow<'static, str>>) {
        bar.disable_steady_tick();
        bar.set_style(
            ProgressStyle::with_template("  {prefix:<13} {msg}").expect("a valid template"),
        );
        bar.finish_with_message(message);
    }
}
