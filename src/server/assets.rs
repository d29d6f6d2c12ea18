//! The analysis page: plain HTML, JavaScript modules, CSS and inline SVG, embedded in the
//! binary (no build step, nothing fetched from elsewhere).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page's files: URL path, content type, text.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("page/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("page/board.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("page/api.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("page/style.css"),
    ),
];

/// The response for one embedded file (`None` for an unknown path).
pub fn file(path: &str) -> Option<Response> {
    FILES.iter().find(|f| f.0 == path).map(|&(_, ty, text)| {
        (
            [
                (header::CONTENT_TYPE, ty),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            text,
        )
            .into_response()
    })
}
