//! `giuthi serve`: an analysis board in the browser. An HTTP server (axum on tokio)
//! serving one page (plain HTML, JavaScript modules and SVG embedded in the binary) and a
//! JSON API over the rules, the sowing trace and the solver (docs/serve.md).
//!
//! This layer sits above `solve` and `tablebase`, beside the command line. Tables come only
//! from the folder given at startup; no request names a file.
//!
//! # Examples
//!
//! ```
//! use giuthi::server::{router, JobLimits};
//! let app = router(JobLimits::default()); // an axum Router, to serve or to test
//! # let _ = app;
//! ```

pub mod api;
pub mod assets;
pub mod error;
pub mod game;
pub mod jobs;

pub use jobs::JobLimits;

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use jobs::Jobs;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// The server's routes: the page's files, `/api/position`, `/api/play`, `/api/solve`.
/// A reaper task is started with [`serve`]; a router alone never stops idle solves.
pub fn router(limits: JobLimits) -> Router {
    router_with(Arc::new(Jobs::new(limits)))
}

fn router_with(jobs: Arc<Jobs>) -> Router {
    Router::new()
        .route(
            "/api/position",
            get(api::get_position).post(api::post_position),
        )
        .route("/api/play", post(api::play))
        .route("/api/solve", post(api::solve_start))
        .route("/api/solve/{job}", get(api::solve_poll))
        .route("/api/solve/{job}/stop", post(api::solve_stop))
        .fallback(page)
        .method_not_allowed_fallback(not_allowed)
        .with_state(jobs)
}

/// A known address asked with a method it does not take: 405 with the JSON error body
/// every other refusal has.
async fn not_allowed(req: Request) -> Response {
    error::ApiError::other(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} {}: this address does not take {} (the API: docs/serve.md)",
            req.method(),
            req.uri().path(),
            req.method()
        ),
    )
    .into_response()
}

async fn page(req: Request) -> Response {
    match assets::file(req.uri().path()) {
        Some(r) => r,
        None => error::ApiError::other(
            axum::http::StatusCode::NOT_FOUND,
            format!("no such page: {}", req.uri().path()),
        )
        .into_response(),
    }
}

/// Serves on `listener` until the process ends, reaping idle and overlong solves once a
/// second.
///
/// # Errors
///
/// An I/O error of the listener.
pub async fn serve(listener: tokio::net::TcpListener, limits: JobLimits) -> std::io::Result<()> {
    serve_until(listener, limits, std::future::pending()).await
}

/// Serves on `listener` until `shutdown` completes, then stops every running job and
/// waits up to 2 s for them to end (`giuthi serve` on SIGTERM or SIGINT).
///
/// # Errors
///
/// An I/O error of the listener.
pub async fn serve_until(
    listener: tokio::net::TcpListener,
    limits: JobLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let jobs = Arc::new(Jobs::new(limits));
    let reaper = jobs.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            reaper.reap();
        }
    });
    let served = axum::serve(listener, router_with(jobs.clone()));
    let result = tokio::select! {
        r = served => r,
        () = shutdown => Ok(()),
    };
    jobs.stop_all("the server stopping");
    let t = std::time::Instant::now();
    while jobs.running() > 0 && t.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    result
}

/// Binds `addr`, prints the address to open, and serves until `shutdown` completes
/// ([`serve_until`]; blocking, on its own runtime).
///
/// # Errors
///
/// The address cannot be bound, or the runtime cannot start.
pub fn run_until(
    addr: SocketAddr,
    limits: JobLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let r = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        println!("giuthi serve: open http://{local}/ in a browser (Ctrl-C stops)");
        serve_until(listener, limits, shutdown).await
    });
    // Connections still open are dropped with the runtime, without waiting.
    rt.shutdown_background();
    r
}

/// Binds `addr`, prints the address to open, and serves (blocking, on its own runtime).
///
/// # Errors
///
/// The address cannot be bound, or the runtime cannot start.
pub fn run(addr: SocketAddr, limits: JobLimits) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let local = listener.local_addr()?;
        println!("giuthi serve: open http://{local}/ in a browser (Ctrl-C stops)");
        serve(listener, limits).await
    })
}
