//! `POST /api/tables/{id}/analysis`: asks for the analysis of a finished
//! game (queued on the server's analysis pool); `GET` the same address:
//! where it stands, and the analysis once done. Both take the marks'
//! thresholds (`thresholds`: doubtful, bad, very bad) to mark the moves
//! with instead of GNU Backgammon's.

use super::{AppState, JsonBody};
use crate::analysis::AnalysisStatus;
use crate::error::ApiError;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use spelbord_ai::analysis::{Analysis, valid_thresholds};

/// The marks' thresholds asked for: `thresholds=0.03,0.06,0.12` in the
/// query, or `"thresholds": [0.03, 0.06, 0.12]` in the body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThresholdsQuery {
    #[serde(default)]
    thresholds: Option<String>,
}

/// Three positive, rising thresholds, or a bad request.
fn thresholds(t: &[f64]) -> Result<[f64; 3], ApiError> {
    match *t {
        [d, b, v] if valid_thresholds([d, b, v]) => Ok([d, b, v]),
        _ => Err(ApiError::BadRequest(
            "`thresholds` takes three positive, rising numbers (doubtful, bad, very bad), \
             e.g. 0.03,0.06,0.12"
                .into(),
        )),
    }
}

/// The answer for a status: `status`, and with `done` the table's `version`
/// analysed and the `analysis`, its moves marked with `marks` when given.
fn answer(status: AnalysisStatus, marks: Option<[f64; 3]>) -> Result<Json<Value>, ApiError> {
    let mut body = json!({ "status": status.name() });
    if let AnalysisStatus::Done { version, analysis } = status {
        let unreadable = |e: serde_json::Error| {
            ApiError::Internal(format!("a stored analysis does not read: {e}"))
        };
        let analysis: Value = match marks {
            None => serde_json::from_str(&analysis).map_err(unreadable)?,
            Some(t) => {
                let mut a: Analysis = serde_json::from_str(&analysis).map_err(unreadable)?;
                a.remark(t);
                serde_json::to_value(a).map_err(unreadable)?
            }
        };
        body["version"] = json!(version);
        body["analysis"] = analysis;
    }
    Ok(Json(body))
}

/// Queues the analysis of a finished game (once; asking again answers
/// where it stands).
pub async fn request(
    State(app): State<AppState>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<Map<String, Value>>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let marks = match body.get("thresholds") {
        None | Some(Value::Null) => None,
        Some(t) => {
            let t: Vec<f64> = serde_json::from_value(t.clone()).unwrap_or_default();
            Some(thresholds(&t)?)
        }
    };
    let cell = app.hub.table(&id).await?;
    let (record, version) = {
        let t = cell.table.lock().await;
        if !t.is_over() {
            return Err(ApiError::NotFinished);
        }
        (t.record(), t.version)
    };
    let status = app.analyses.request(&id, version, record).await?;
    let code = if matches!(status, AnalysisStatus::Done { .. }) {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((code, answer(status, marks)?))
}

/// Where the analysis of a table stands, with the analysis once done.
pub async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ThresholdsQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let marks = match query.thresholds {
        None => None,
        Some(text) => {
            let t: Result<Vec<f64>, _> = text.split(',').map(|x| x.trim().parse()).collect();
            Some(thresholds(&t.unwrap_or_default())?)
        }
    };
    // The table must exist (a 404 otherwise).
    app.hub.table(&id).await?;
    answer(app.analyses.status(&id).await?, marks)
}
