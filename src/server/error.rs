//! The API's error answer: a status code and a JSON body `{"error": message, "field": name}`
//! naming the request field (or the position's field, from the parser's message) at fault.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An error answered to a request (never a panic, never a closed connection).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status: 400 for bad input, 404 for an unknown job, 409 for a position
    /// that cannot be solved, 503 when the server is at its limit of running solves, 500
    /// when it cannot start a solve itself (corrupt tables, no memory).
    pub status: StatusCode,
    /// The message, naming the field and the reason.
    pub message: String,
    /// The field at fault: a request field (`position`, `move`, `client`, `job`) or, for
    /// a position the parser refused, the position's own field (`board`, `turn`, ...).
    pub field: Option<String>,
}

impl ApiError {
    /// A 400 answer about request field `field`.
    pub fn bad(field: &str, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
            field: Some(field.to_string()),
        }
    }

    /// A 400 answer carrying the position parser's message; the field is the one the
    /// message names (`field board: ...` gives `board`).
    pub fn position(message: impl std::fmt::Display) -> ApiError {
        let message = message.to_string();
        let field = message
            .strip_prefix("field ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or("position")
            .to_string();
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message,
            field: Some(field),
        }
    }

    /// An answer with any status and no field.
    pub fn other(status: StatusCode, message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status,
            message: message.to_string(),
            field: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": self.message, "field": self.field});
        (self.status, Json(body)).into_response()
    }
}
