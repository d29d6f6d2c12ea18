//! The JSON API: parse a position, list its moves, play a move (with its sowing trace),
//! and solve in the background (start, poll, stop). Every malformed request is a 4xx
//! answer with a message naming the field (see [`super::error::ApiError`]).

use super::error::ApiError;
use super::game::{trace_json, view, view_any, ServedGame};
use super::jobs::{Jobs, StartError};
use crate::any::AnyPosition;
use crate::position::Position;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The longest position text the API reads.
pub const MAX_POSITION_LEN: usize = 2000;

/// A JSON body, or a 400 naming what is wrong with it.
pub fn body(b: Result<Json<Value>, JsonRejection>) -> Result<Value, ApiError> {
    match b {
        Ok(Json(v)) if v.is_object() => Ok(v),
        Ok(_) => Err(ApiError::bad("body", "body: expected a JSON object")),
        Err(e) => Err(ApiError::bad("body", format!("body: {}", e.body_text()))),
    }
}

/// A string field of a JSON body.
fn text_field<'a>(v: &'a Value, field: &str) -> Result<&'a str, ApiError> {
    match v.get(field) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(ApiError::bad(field, format!("{field}: expected a string"))),
        None => Err(ApiError::bad(field, format!("{field}: missing"))),
    }
}

/// Parses a position field.
pub fn parse_position(text: &str) -> Result<AnyPosition, ApiError> {
    if text.len() > MAX_POSITION_LEN {
        return Err(ApiError::bad(
            "position",
            format!("position: longer than {MAX_POSITION_LEN} characters"),
        ));
    }
    text.parse::<AnyPosition>().map_err(ApiError::position)
}

/// `GET /api/position?position=...`: the position's view (board, moves, excluded sowings).
pub async fn get_position(
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let text = q
        .get("position")
        .ok_or_else(|| ApiError::bad("position", "position: missing (?position=...)"))?;
    Ok(Json(view_any(&parse_position(text)?)))
}

/// `POST /api/position {"position"}`: as the GET.
pub async fn post_position(b: Result<Json<Value>, JsonRejection>) -> Result<Json<Value>, ApiError> {
    let v = body(b)?;
    Ok(Json(view_any(&parse_position(text_field(
        &v, "position",
    )?)?)))
}

fn play_in<R: ServedGame>(pos: &Position<R>, mv_text: &str) -> Result<Value, ApiError> {
    let mv = pos
        .rules
        .parse_move(mv_text)
        .map_err(|e| ApiError::bad("move", e))?;
    let (after, child) = pos.play_report(mv).map_err(|e| ApiError::bad("move", e))?;
    let trace = pos.rules.trace(&pos.state, mv).map(|t| trace_json(&t));
    Ok(json!({
        "move": mv.to_string(),
        "before": pos.to_string(),
        "captured": child.captured,
        "extra": !child.turn_passes,
        "trace": trace,
        "position": view(&after),
    }))
}

/// `POST /api/play {"position", "move"}`: the new position and the move's sowing trace.
pub async fn play(b: Result<Json<Value>, JsonRejection>) -> Result<Json<Value>, ApiError> {
    let v = body(b)?;
    let pos = parse_position(text_field(&v, "position")?)?;
    let mv = text_field(&v, "move")?;
    if mv.len() > 200 {
        return Err(ApiError::bad("move", "move: longer than 200 characters"));
    }
    Ok(Json(crate::with_position!(&pos, p => play_in(p, mv))?))
}

/// Checks a client id: 1 to 64 letters, digits or `-`.
fn client_id(v: &Value) -> Result<String, ApiError> {
    let c = text_field(v, "client")?;
    if c.is_empty() || c.len() > 64 || !c.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(ApiError::bad(
            "client",
            "client: expected 1 to 64 letters, digits or '-'",
        ));
    }
    Ok(c.to_string())
}

/// `POST /api/solve {"position", "client"}`: starts a background solve (stopping the
/// client's previous one) and answers the job (`{"job", "state", ...}`).
pub async fn solve_start(
    State(jobs): State<Arc<Jobs>>,
    b: Result<Json<Value>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let v = body(b)?;
    let pos = parse_position(text_field(&v, "position")?)?;
    let client = client_id(&v)?;
    let job = crate::with_position!(&pos, p => jobs.start(p, &client)).map_err(|e| match e {
        StartError::Busy(_) => ApiError::other(StatusCode::SERVICE_UNAVAILABLE, e),
        StartError::Unsolvable(_) => ApiError::bad("position", e),
        // The server's own tables (a corrupt layer) or memory: a fault of the server,
        // not of the request, and not a busy server.
        _ => ApiError::other(StatusCode::INTERNAL_SERVER_ERROR, e),
    })?;
    Ok(Json(job.to_json()))
}

fn job_id(id: &str) -> Result<u64, ApiError> {
    id.parse()
        .map_err(|_| ApiError::bad("job", format!("job: {id:?} is not a job number")))
}

fn unknown(id: u64) -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: format!("job {id}: no such job (finished jobs are kept for a few minutes)"),
        field: Some("job".to_string()),
    }
}

/// `GET /api/solve/{job}`: the job's state, progress and answer so far.
pub async fn solve_poll(
    State(jobs): State<Arc<Jobs>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = job_id(&id)?;
    let job = jobs.poll(id).ok_or_else(|| unknown(id))?;
    Ok(Json(job.to_json()))
}

/// `POST /api/solve/{job}/stop`: stops the job; answers its state.
pub async fn solve_stop(
    State(jobs): State<Arc<Jobs>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = job_id(&id)?;
    let job = jobs.stop(id).ok_or_else(|| unknown(id))?;
    Ok(Json(job.to_json()))
}
