//! `POST /api/tables/{id}/analysis`: asks for the analysis of a finished
//! game (queued on the server's analysis pool); `GET` the same address:
//! where it stands, and the analysis once done.

use super::{AppState, JsonBody};
use crate::analysis::AnalysisStatus;
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};

/// The answer for a status: `status`, and with `done` the table's `version`
/// analysed and the `analysis`.
fn answer(status: AnalysisStatus) -> Result<Json<Value>, ApiError> {
    let mut body = json!({ "status": status.name() });
    if let AnalysisStatus::Done { version, analysis } = status {
        let analysis: Value = serde_json::from_str(&analysis)
            .map_err(|e| ApiError::Internal(format!("a stored analysis does not read: {e}")))?;
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
    JsonBody(_): JsonBody<Map<String, Value>>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
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
    Ok((code, answer(status)?))
}

/// Where the analysis of a table stands, with the analysis once done.
pub async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    // The table must exist (a 404 otherwise).
    app.hub.table(&id).await?;
    answer(app.analyses.status(&id).await?)
}
