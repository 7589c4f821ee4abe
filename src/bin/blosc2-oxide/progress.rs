//! A progress bar on a terminal (stderr), nothing when stderr is piped or `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A byte progress bar that may be hidden.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar for `total` bytes (unknown when `None`), shown only on a terminal.
    pub fn new(total: Option<u64>, quiet: bool, what: &str) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = match total {
            Some(t) => ProgressBar::new(t),
            None => ProgressBar::new_spinner(),
        };
        let style = ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] [{wide_bar}] {bytes}/{total_bytes} ({bytes_per_sec})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(what.to_string());
        Progress(Some(bar))
    }

    /// Sets the position (bytes done).
    pub fn set(&self, done: u64) {
        if let Some(b) = &self.0 {
            b.set_position(done);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}
