//! A progress bar on stderr for long work (`tumble run`'s steps, `tumble study`'s runs).
use std::io::IsTerminal;

/// A progress bar on stderr for long work (indicatif), drawn only when stderr is a terminal
/// and not `--quiet`; it is cleared when the work is done, so logs and pipes see nothing.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// For `total` units of `what` ("steps", "runs").
    pub(crate) fn new(total: u64, what: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(total);
        let style = indicatif::ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what}  {{msg}}  {{per_sec}}  {{eta}} left"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
        bar.set_style(style);
        Progress(Some(bar))
    }

    /// `done` units done; `t` the simulated time (s), shown beside the bar.
    pub(crate) fn at(&self, done: u64, t: f64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
            if done.is_multiple_of(64) {
                bar.set_message(format!("t = {t:.3} s"));
            }
        }
    }

    /// One more unit done, with a message.
    pub(crate) fn inc(&self, msg: &str) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
            bar.set_message(msg.to_string());
        }
    }

    /// Whether a bar is drawn (else the caller may print plain lines).
    pub(crate) fn drawn(&self) -> bool {
        self.0.is_some()
    }

    /// Clear the bar.
    pub(crate) fn done(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
