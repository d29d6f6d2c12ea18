//! The process-wide stop flag: Ctrl-C (SIGINT), SIGTERM and SIGHUP ask a long run to stop
//! cleanly (save its checkpoint or `.partial` file, print what is proven, exit 130),
//! except SIGHUP where the process was started with it ignored (`nohup giuthi ...`,
//! `trap '' HUP`): such a run goes on after its terminal closes, as `nohup` promises.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The process-wide stop flag, raised by Ctrl-C, SIGTERM and SIGHUP (not by a SIGHUP that
/// was ignored when the process started: see the module docs). The handlers are installed
/// on the first call.
pub(super) fn stop_flag() -> Arc<AtomicBool> {
    static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    STOP.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let keep_hup_ignored = sighup_ignored();
        // If a handler cannot be installed, Ctrl-C simply kills the process.
        let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
        if keep_hup_ignored {
            // ctrlc's "termination" handler covers SIGHUP too; put back the ignore that
            // `nohup` asked for.
            ignore_sighup();
        }
        flag
    })
    .clone()
}

/// Whether SIGHUP is ignored in this process (inherited through exec from `nohup` or a
/// shell's `trap '' HUP`).
#[allow(unsafe_code)]
fn sighup_ignored() -> bool {
    // SAFETY: sigaction(2) with a null new action only reads the current disposition into
    // the zeroed struct we own.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGHUP, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Sets SIGHUP's disposition back to ignored.
#[allow(unsafe_code)]
fn ignore_sighup() {
    // SAFETY: signal(2) with SIG_IGN installs no handler code; no Rust state is touched.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
    }
}
