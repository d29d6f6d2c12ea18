//! The `giuthi` command line: a thin clap front end over the library.

mod cli;

fn main() {
    restore_sigpipe();
    std::process::exit(cli::run());
}

/// Restores the default action of SIGPIPE (Rust ignores it, so a write to a closed pipe
/// such as `giuthi solve FILE | head -1` would panic in `println!`): the process then ends
/// quietly when its reader goes away, as Unix tools do.
#[cfg(unix)]
#[allow(unsafe_code)]
fn restore_sigpipe() {
    // SAFETY: called first thing in `main`, before any other thread exists; setting the
    // default disposition of SIGPIPE installs no handler and touches no Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
