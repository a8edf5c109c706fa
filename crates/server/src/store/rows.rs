//! Reading stored rows, the same for SQLite and PostgreSQL: each function is
//! generic over the database's row type, which decodes the same Rust types
//! from the columns both schemas define.

use super::{
    AutoRoll, Ending, Inactivity, SeatKind, StoreError, StoredAction, StoredSeat, StoredTable,
    Takeover,
};
use crate::token::TokenHash;
use spelbord_engine::Options;
use sqlx::{ColumnIndex, Decode, Row, Type};

/// A row type of a database that decodes every column type of the schema.
pub(super) trait StoreRow: Row {}

impl StoreRow for sqlx::sqlite::SqliteRow {}
impl StoreRow for sqlx::postgres::PgRow {}

/// Reads column `column` of `row` as a `T`.
fn get<'r, R, T>(row: &'r R, column: &str) -> Result<T, StoreError>
where
    R: StoreRow,
    for<'c> &'c str: ColumnIndex<R>,
    T: Decode<'r, R::Database> + Type<R::Database>,
{
    Ok(row.try_get(column)?)
}

/// A 32-byte hash column, if set.
fn hash_column<'r, R>(row: &'r R, column: &str) -> Result<Option<TokenHash>, StoreError>
where
    R: StoreRow,
    for<'c> &'c str: ColumnIndex<R>,
    Option<Vec<u8>>: Decode<'r, R::Database> + Type<R::Database>,
{
    let bytes: Option<Vec<u8>> = get(row, column)?;
    bytes
        .map(|b| {
            TokenHash::try_from(b.as_slice())
                .map_err(|_| StoreError::Corrupt(format!("{column} is not a 32-byte hash")))
        })
        .transpose()
}

/// A seat's kind from its stored `kind` and `agent` columns.
pub(super) fn seat_kind(kind: &str, agent: Option<String>) -> Result<SeatKind, StoreError> {
    match (kind, agent) {
        ("open", _) => Ok(SeatKind::Open),
        ("human", _) => Ok(SeatKind::Human),
        ("ai", Some(agent)) => Ok(SeatKind::Ai(agent)),
        (other, _) => Err(StoreError::Corrupt(format!("seat kind `{other}`"))),
    }
}

/// The `kind` and `agent` columns of a seat's kind.
pub(super) fn kind_columns(kind: &SeatKind) -> (&'static str, Option<&str>) {
    match kind {
        SeatKind::Open => ("open", None),
        SeatKind::Human => ("human", None),
        SeatKind::Ai(agent) => ("ai", Some(agent.as_str())),
    }
}

/// The `inactivity_then` column of a takeover.
pub(super) fn takeover_text(then: Takeover) -> &'static str {
    match then {
        Takeover::Forfeit => "forfeit",
        Takeover::Ai => "ai",
    }
}

/// A row of `seats`.
pub(super) fn seat_from_row<'r, R>(row: &'r R) -> Result<StoredSeat, StoreError>
where
    R: StoreRow,
    for<'c> &'c str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
    Option<Vec<u8>>: Decode<'r, R::Database> + Type<R::Database>,
{
    let kind: String = get(row, "kind")?;
    Ok(StoredSeat {
        seat: get::<R, i64>(row, "seat")? as usize,
        kind: seat_kind(&kind, get(row, "agent")?)?,
        name: get(row, "name")?,
        token_hash: hash_column(row, "token_hash")?,
        player_hash: hash_column(row, "player_hash")?,
        joined_at: get(row, "joined_at")?,
        seed: get(row, "seed")?,
        join_key_hash: hash_column(row, "join_key_hash")?,
        account: get(row, "account")?,
        auto_roll: AutoRoll::parse(&get::<R, String>(row, "auto_roll")?).unwrap_or_default(),
    })
}

/// A row of `actions` (columns `version`, `seat`, `text`, `auto`).
pub(super) fn action_from_row<'r, R>(row: &'r R) -> Result<StoredAction, StoreError>
where
    R: StoreRow,
    for<'c> &'c str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
    Option<i64>: Decode<'r, R::Database> + Type<R::Database>,
    bool: Decode<'r, R::Database> + Type<R::Database>,
{
    Ok(StoredAction {
        version: get::<R, i64>(row, "version")? as u64,
        seat: get::<R, Option<i64>>(row, "seat")?.map(|s| s as usize),
        text: get(row, "text")?,
        auto: get(row, "auto")?,
        think_ms: get::<R, Option<i64>>(row, "think_ms")?.map(|t| t.max(0) as u64),
        clock: get::<R, Option<String>>(row, "clock")?
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("clock of an action: {e}")))?,
    })
}

/// The `clock` column of an action: every seat's milliseconds left, as JSON.
pub(super) fn clock_text(clock: Option<&[i64]>) -> Option<String> {
    clock.map(|c| serde_json::to_string(c).unwrap_or_default())
}

/// The `clock` column of a table: its time control, as JSON.
pub(super) fn control_text(control: Option<&crate::clock::TimeControl>) -> Option<String> {
    control.map(|c| serde_json::to_string(c).unwrap_or_default())
}

/// The JSON text of column `column` of table `id`, if set, as a `T`.
fn parse<T: serde::de::DeserializeOwned>(
    id: &str,
    column: &str,
    text: Option<String>,
) -> Result<Option<T>, StoreError> {
    text.map(|t| serde_json::from_str(&t))
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("{column} of table {id}: {e}")))
}

/// A row of `game_tables` with its seats and actions, read separately.
pub(super) fn table_from_row<'r, R>(
    row: &'r R,
    seats: Vec<StoredSeat>,
    actions: Vec<StoredAction>,
) -> Result<StoredTable, StoreError>
where
    R: StoreRow,
    for<'c> &'c str: ColumnIndex<R>,
    String: Decode<'r, R::Database> + Type<R::Database>,
    Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    i64: Decode<'r, R::Database> + Type<R::Database>,
    bool: Decode<'r, R::Database> + Type<R::Database>,
    Option<Vec<u8>>: Decode<'r, R::Database> + Type<R::Database>,
{
    let id: String = get(row, "id")?;
    let options: Options = parse(&id, "options", Some(get(row, "options")?))?
        .ok_or_else(|| StoreError::Corrupt(format!("options of table {id}")))?;
    let result: Option<Vec<f64>> = parse(&id, "result", get(row, "result")?)?;
    let ending: Option<Ending> = parse(&id, "ending", get(row, "ending")?)?;
    let then: String = get(row, "inactivity_then")?;
    let clock = parse(&id, "clock", get(row, "clock")?)?;
    Ok(StoredTable {
        server_seed: hash_column(row, "server_seed")?,
        ending,
        inactivity: Inactivity {
            seconds: get::<R, i64>(row, "inactivity_seconds")?.max(1) as u64,
            then: if then == "ai" {
                Takeover::Ai
            } else {
                Takeover::Forfeit
            },
        },
        listed: get(row, "listed")?,
        rematch_of: get(row, "rematch_of")?,
        rated: get(row, "rated")?,
        clock,
        game: get(row, "game")?,
        options,
        auto_forced: get(row, "auto_forced")?,
        creator_hash: hash_column(row, "creator_hash")?,
        version: get::<R, i64>(row, "version")? as u64,
        result,
        seats,
        actions,
        created_at: get(row, "created_at")?,
        updated_at: get(row, "updated_at")?,
        id,
    })
}
