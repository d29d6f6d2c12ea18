//! `giuthi serve`: the analysis board in the browser (the server lives in the library,
//! `giuthi::server`; this file reads the options).

use super::common::usage;
use giuthi::server::JobLimits;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// Arguments of `giuthi serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    giuthi serve                      # http://127.0.0.1:8080/\n  \
    giuthi serve --port 9000 --tb tb5 --hash 512\n\n\
    Open the printed address. A position opens from the address: \
    http://127.0.0.1:8080/#pos=giuthi%201,0,0,0/1,3,0,0%20S%200,2 . The API is described \
    in docs/serve.md. Solves run in the background, one per page, each stopped after \
    --time-limit seconds or when its page goes away. SIGTERM and SIGINT (Ctrl-C) stop the \
    running solves and end the server with `giuthi serve: stopped (SIGTERM)` on stderr, \
    exit 0 (also when SIGINT was inherited ignored, as by a script's `giuthi serve &`).")]
pub struct Args {
    /// TCP port (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on: an IP address or `localhost` (default the loopback 127.0.0.1:
    /// only this machine can reach the page; the server has no authentication, so any
    /// other address, such as 0.0.0.0, opens it to the network: a warning says so).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = parse_host)]
    pub host: IpAddr,
    /// Probe the endgame tablebases in DIR during solves (made by `giuthi tb gen`).
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
    /// Search threads of one solve, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table of one solve in megabytes, 1 to 16384: 16 bytes an entry, from
    /// 1024 on 8 (twice the entries; docs/solver.md); rounded down to a power of two.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Seconds after which a solve is stopped (it reports what it proved), more than 0
    /// and at most 86400; fractions allowed (`2.5`). The limit is checked twice a second.
    #[arg(long, value_name = "SECONDS", default_value = "120",
          value_parser = giuthi::anytime::matchplay::parse_seconds)]
    pub time_limit: Duration,
    /// Solves running at once over all pages, 1 to 64.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_solves: u16,
}

/// Runs `giuthi serve`; returns the exit code.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(dir) = &args.tb {
        if !dir.is_dir() {
            let why = if dir.exists() {
                "not a folder"
            } else {
                "no such folder"
            };
            return Err(usage(format!("--tb {}: {why}", dir.display())));
        }
    }
    let limits = JobLimits {
        threads: args.threads as usize,
        hash_mb: args.hash as usize,
        time_limit: args.time_limit,
        max_running: args.max_solves as usize,
        tb: args.tb,
        ..JobLimits::default()
    };
    let addr = SocketAddr::new(args.host, args.port);
    if !args.host.is_loopback() {
        eprintln!(
            "giuthi serve: warning: listening on {}, not a loopback address: anyone who can \
             reach this machine can use the server (it has no authentication)",
            args.host
        );
    }
    install_stop_handlers();
    let shutdown = async {
        let mut tick = tokio::time::interval(Duration::from_millis(50));
        while SIGNAL.load(Ordering::Relaxed) == 0 {
            tick.tick().await;
        }
    };
    giuthi::server::run_until(addr, limits, shutdown)
        .map_err(|e| usage(format!("--host {} --port {}: {e}", args.host, args.port)))?;
    let name = match SIGNAL.load(Ordering::Relaxed) {
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => "the listener closed",
    };
    eprintln!("giuthi serve: stopped ({name})");
    Ok(0)
}

/// `--host`: an IP address, or `localhost` for the loopback 127.0.0.1.
fn parse_host(s: &str) -> Result<IpAddr, String> {
    if s.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    s.parse()
        .map_err(|e| format!("{e} (an IP address such as 127.0.0.1, ::1 or 0.0.0.0, or localhost)"))
}

/// The signal that stops the server (0: none yet), set by [`on_stop_signal`].
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The handler of SIGTERM and SIGINT: records the signal (async-signal-safe: one atomic
/// store); the server polls it, stops its jobs, says which signal and exits 0.
extern "C" fn on_stop_signal(sig: libc::c_int) {
    SIGNAL.store(sig, Ordering::Relaxed);
}

/// Installs [`on_stop_signal`] for SIGTERM and SIGINT, also where SIGINT was inherited
/// ignored (a server started in the background by a script: `giuthi serve &`), so both
/// stop the server cleanly with a message instead of killing it silently or not at all.
#[allow(unsafe_code)]
fn install_stop_handlers() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: the handler only stores into an atomic (async-signal-safe); sigaction
        // with a zeroed, then filled, struct installs it; no Rust state is touched.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_stop_signal as extern "C" fn(libc::c_int) as usize;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}
