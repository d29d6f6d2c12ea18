//! A progress line for long work: a spinner on stderr with what is being done and the
//! time so far, drawn only on a terminal, only after the first second, and never with
//! `--json` or `--quiet` (the callers decide `show`).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the work is doing now, as the spinner shows it; set from the working thread.
#[derive(Debug, Default)]
pub struct Status(Mutex<String>);

impl Status {
    /// Sets the text shown.
    pub fn set(&self, text: impl Into<String>) {
        if let Ok(mut s) = self.0.lock() {
            *s = text.into();
        }
    }

    fn text(&self) -> String {
        self.0.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

/// Whether progress may be drawn: asked for (`!quiet && !json`) and stderr a terminal.
pub fn wanted(quiet: bool, json: bool) -> bool {
    !quiet && !json && std::io::stderr().is_terminal()
}

/// Runs `f` with a spinner showing `status` and the seconds so far, when `show` is set.
pub fn with_status<T>(show: bool, status: &Status, f: impl FnOnce() -> T) -> T {
    with_spinner(show, |t| format!("{} ({t:.0} s)", status.text()), f)
}

/// Runs `f` with a spinner on stderr, from one second on, when `show` is set; `message`
/// gets the seconds so far and says what to show (every 100 ms).
pub fn with_spinner<T>(
    show: bool,
    message: impl Fn(f64) -> String + Sync,
    f: impl FnOnce() -> T,
) -> T {
    if !show {
        return f();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let mut bar: Option<indicatif::ProgressBar> = None;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let t = start.elapsed().as_secs_f64();
                if t < 1.0 {
                    continue;
                }
                let b = bar.get_or_insert_with(indicatif::ProgressBar::new_spinner);
                b.set_message(message(t));
                b.tick();
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        let r = f();
        done.store(true, Ordering::Relaxed);
        r
    })
}
