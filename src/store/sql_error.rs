//! What a statement of the shared stores (`store::sql`, `store::pg`) can meet, in one type for
//! both engines: a broken rule of the schema, a database that cannot be reached (503), or
//! another failure of the engine (500).

use crate::error::{Error, StoreError};

/// What a statement met: a broken rule of the schema (a unique index), a database that cannot
/// be reached, or any other failure of the engine.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Sqlite(rusqlite::Error),
    #[error(transparent)]
    Postgres(tokio_postgres::Error),
    /// No connection: the server is down, the network is, or the pool waited too long.
    #[error("{0}")]
    Unreachable(String),
    /// A unique index or another constraint refused the write.
    #[error("{0}")]
    Constraint(String),
    /// A row not shaped as the statement expects (a column missing or of another type).
    #[error("unexpected row: {0}")]
    Shape(String),
}

impl DbError {
    pub fn is_constraint(&self) -> bool {
        matches!(self, DbError::Constraint(_))
    }

    /// This failure while doing `what`, as the crate's error: 503 when the database cannot be
    /// reached, 500 otherwise.
    pub fn at(self, what: impl Into<String>) -> Error {
        let what = what.into();
        match self {
            DbError::Sqlite(source) => StoreError::sqlite(what, source),
            DbError::Postgres(source) => Error::Store(StoreError::Postgres { what, source }),
            DbError::Unreachable(detail) => Error::Store(StoreError::Unreachable { what, detail }),
            DbError::Constraint(detail) | DbError::Shape(detail) => {
                StoreError::damaged(what, detail)
            }
        }
    }
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        match &e {
            rusqlite::Error::SqliteFailure(code, _)
                if code.code == rusqlite::ErrorCode::ConstraintViolation =>
            {
                DbError::Constraint(e.to_string())
            }
            _ => DbError::Sqlite(e),
        }
    }
}

impl From<tokio_postgres::Error> for DbError {
    fn from(e: tokio_postgres::Error) -> Self {
        let Some(code) = e.code() else {
            // No SQLSTATE: the connection broke, closed or timed out.
            return DbError::Unreachable(e.to_string());
        };
        let code = code.code();
        if code.starts_with("23") {
            DbError::Constraint(e.to_string())
        } else if code.starts_with("08") || code.starts_with("57P") || code == "53300" {
            // Connection exceptions, an administrator's or a crash's shutdown, too many
            // connections: the server is not there for us, whatever the statement.
            DbError::Unreachable(e.to_string())
        } else {
            DbError::Postgres(e)
        }
    }
}
