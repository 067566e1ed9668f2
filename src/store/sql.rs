//! One way to speak SQL to either of the databases `serve`'s shared stores can live in: the
//! network's SQLite file (the default, one process) or PostgreSQL (`serve --database
//! postgres://…`, for replicas). The submit journal and the relayer's jobs, leases and rate
//! budgets are written once against [`Db`], in the SQL both engines take, so no workflow and
//! no store knows which one it runs on, and the same tests run against both.
//!
//! The SQL is written with PostgreSQL's numbered placeholders (`$1`); SQLite reads them as
//! its own `?1`. Every integer is 64-bit (`BIGINT` in PostgreSQL, so one Rust type binds to
//! every column), sums are cast back to `BIGINT` (PostgreSQL sums them as `numeric`), and a
//! null is typed ([`Value::NullInt`], [`Value::NullText`]) because PostgreSQL checks a
//! parameter's type even when it is null. Where the engines differ in more than that (row
//! locks), [`Db::is_postgres`] lets the statement say so.

use std::sync::Arc;
use std::time::Instant;

use crate::store::db::Shared;
use crate::store::pg::Pg;
pub use crate::store::sql_error::DbError;

/// A parameter or a column's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Text(String),
    NullInt,
    NullText,
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Int(i64::from(v))
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_owned())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Self {
        Value::Text(v.clone())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}

impl From<Option<i64>> for Value {
    fn from(v: Option<i64>) -> Self {
        v.map_or(Value::NullInt, Value::Int)
    }
}

impl From<Option<&str>> for Value {
    fn from(v: Option<&str>) -> Self {
        v.map_or(Value::NullText, Value::from)
    }
}

impl From<Option<String>> for Value {
    fn from(v: Option<String>) -> Self {
        v.map_or(Value::NullText, Value::Text)
    }
}

/// A list of parameters: `params![a, b]`.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        vec![$($crate::store::sql::Value::from($value)),*]
    };
}
pub(crate) use params;

/// One row of a query's answer, its columns in the order the query named them.
#[derive(Debug, Clone)]
pub struct Row(Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> std::result::Result<&Value, DbError> {
        self.0
            .get(i)
            .ok_or_else(|| DbError::Shape(format!("no column {i}")))
    }

    pub fn int(&self, i: usize) -> std::result::Result<i64, DbError> {
        match self.at(i)? {
            Value::Int(v) => Ok(*v),
            other => Err(DbError::Shape(format!(
                "column {i} is {other:?}, not a number"
            ))),
        }
    }

    pub fn opt_int(&self, i: usize) -> std::result::Result<Option<i64>, DbError> {
        match self.at(i)? {
            Value::Int(v) => Ok(Some(*v)),
            Value::NullInt | Value::NullText => Ok(None),
            other => Err(DbError::Shape(format!(
                "column {i} is {other:?}, not a number"
            ))),
        }
    }

    pub fn text(&self, i: usize) -> std::result::Result<String, DbError> {
        match self.at(i)? {
            Value::Text(v) => Ok(v.clone()),
            other => Err(DbError::Shape(format!("column {i} is {other:?}, not text"))),
        }
    }

    pub fn opt_text(&self, i: usize) -> std::result::Result<Option<String>, DbError> {
        match self.at(i)? {
            Value::Text(v) => Ok(Some(v.clone())),
            Value::NullInt | Value::NullText => Ok(None),
            other => Err(DbError::Shape(format!("column {i} is {other:?}, not text"))),
        }
    }
}

/// The database a shared store lives in. Clones share it.
#[derive(Clone)]
pub enum Db {
    Sqlite(Arc<Shared>),
    Postgres(Arc<Pg>),
}

/// A statement and its parameters, for [`Db::transaction`].
pub type Statement<'a> = (&'a str, Vec<Value>);

impl Db {
    pub fn is_postgres(&self) -> bool {
        matches!(self, Db::Postgres(_))
    }

    /// The engine's name, for metrics and messages.
    pub fn backend(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// Runs one statement; answers how many rows it changed.
    pub fn execute(&self, sql: &str, params: Vec<Value>) -> std::result::Result<u64, DbError> {
        self.timed(|| match self {
            Db::Sqlite(db) => db.with(|conn| {
                let changed = conn.execute(&sqlite_sql(sql), sqlite_params(&params))?;
                Ok(changed as u64)
            }),
            Db::Postgres(pg) => pg.block(async {
                let client = pg.client().await?;
                // Prepared once per connection: a statement is then one round trip.
                let statement = client.prepare_cached(sql).await?;
                Ok(client.execute(&statement, &pg_params(&params)).await?)
            }),
        })
    }

    /// Runs one query (or a statement with `RETURNING`); answers its rows.
    pub fn query(&self, sql: &str, params: Vec<Value>) -> std::result::Result<Vec<Row>, DbError> {
        self.timed(|| match self {
            Db::Sqlite(db) => db.with(|conn| {
                let mut statement = conn.prepare_cached(&sqlite_sql(sql))?;
                let columns = statement.column_count();
                let mut rows = statement.query(sqlite_params(&params))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    out.push(sqlite_row(row, columns)?);
                }
                Ok(out)
            }),
            Db::Postgres(pg) => pg.block(async {
                let client = pg.client().await?;
                let statement = client.prepare_cached(sql).await?;
                let rows = client.query(&statement, &pg_params(&params)).await?;
                rows.iter().map(pg_row).collect()
            }),
        })
    }

    /// The first row of a query, if any.
    pub fn query_one(
        &self,
        sql: &str,
        params: Vec<Value>,
    ) -> std::result::Result<Option<Row>, DbError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// Runs `statements` in one transaction: all of them are on disk when this returns, or
    /// none is.
    pub fn transaction(&self, statements: Vec<Statement<'_>>) -> std::result::Result<(), DbError> {
        self.timed(|| match self {
            Db::Sqlite(db) => db.with(|conn| {
                let tx = conn.transaction()?;
                for (sql, params) in &statements {
                    tx.execute(&sqlite_sql(sql), sqlite_params(params))?;
                }
                Ok(tx.commit()?)
            }),
            Db::Postgres(pg) => pg.block(async {
                let mut client = pg.client().await?;
                let tx = client.transaction().await?;
                for (sql, params) in &statements {
                    let statement = tx.prepare_cached(sql).await?;
                    tx.execute(&statement, &pg_params(params)).await?;
                }
                Ok(tx.commit().await?)
            }),
        })
    }

    fn timed<T>(
        &self,
        f: impl FnOnce() -> std::result::Result<T, DbError>,
    ) -> std::result::Result<T, DbError> {
        let started = Instant::now();
        let result = f();
        let outcome = match &result {
            Ok(_) => "ok",
            Err(DbError::Unreachable(_)) => "unreachable",
            Err(_) => "error",
        };
        metrics::histogram!(
            "tronpool_db_query_seconds",
            "backend" => self.backend(),
            "outcome" => outcome
        )
        .record(started.elapsed().as_secs_f64());
        result
    }
}

/// `$1` as SQLite's `?1` (the same numbered parameter); nothing else changes.
fn sqlite_sql(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn sqlite_params(params: &[Value]) -> rusqlite::ParamsFromIter<Vec<rusqlite::types::Value>> {
    rusqlite::params_from_iter(
        params
            .iter()
            .map(|v| match v {
                Value::Int(i) => rusqlite::types::Value::Integer(*i),
                Value::Text(t) => rusqlite::types::Value::Text(t.clone()),
                Value::NullInt | Value::NullText => rusqlite::types::Value::Null,
            })
            .collect::<Vec<_>>(),
    )
}

fn sqlite_row(row: &rusqlite::Row<'_>, columns: usize) -> std::result::Result<Row, DbError> {
    (0..columns)
        .map(|i| {
            Ok(match row.get_ref(i)? {
                rusqlite::types::ValueRef::Null => Value::NullInt,
                rusqlite::types::ValueRef::Integer(v) => Value::Int(v),
                rusqlite::types::ValueRef::Text(t) => {
                    Value::Text(String::from_utf8_lossy(t).into_owned())
                }
                other => {
                    return Err(DbError::Shape(format!(
                        "column {i} is {:?}",
                        other.data_type()
                    )));
                }
            })
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map(Row)
}

fn pg_params(params: &[Value]) -> Vec<&(dyn tokio_postgres::types::ToSql + Sync)> {
    params.iter().map(|v| v as _).collect()
}

impl tokio_postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut tokio_postgres::types::private::BytesMut,
    ) -> std::result::Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use tokio_postgres::types::ToSql;
        match self {
            Value::Int(v) if <i64 as ToSql>::accepts(ty) => v.to_sql(ty, out),
            Value::Text(v) if <String as ToSql>::accepts(ty) => v.to_sql(ty, out),
            Value::Int(_) | Value::Text(_) => {
                Err(format!("{self:?} cannot be bound to a parameter of type {ty}").into())
            }
            Value::NullInt | Value::NullText => Ok(tokio_postgres::types::IsNull::Yes),
        }
    }

    fn accepts(ty: &tokio_postgres::types::Type) -> bool {
        <i64 as tokio_postgres::types::ToSql>::accepts(ty)
            || <String as tokio_postgres::types::ToSql>::accepts(ty)
    }

    tokio_postgres::types::to_sql_checked!();
}

fn pg_row(row: &tokio_postgres::Row) -> std::result::Result<Row, DbError> {
    use tokio_postgres::types::Type;
    row.columns()
        .iter()
        .enumerate()
        .map(|(i, column)| {
            let ty = column.type_();
            Ok(if *ty == Type::INT8 {
                row.try_get::<_, Option<i64>>(i)?
                    .map_or(Value::NullInt, Value::Int)
            } else if *ty == Type::INT4 {
                row.try_get::<_, Option<i32>>(i)?
                    .map_or(Value::NullInt, |v| Value::Int(v.into()))
            } else if *ty == Type::BOOL {
                row.try_get::<_, Option<bool>>(i)?
                    .map_or(Value::NullInt, |v| Value::Int(v.into()))
            } else if *ty == Type::TEXT || *ty == Type::VARCHAR {
                row.try_get::<_, Option<String>>(i)?
                    .map_or(Value::NullText, Value::Text)
            } else {
                return Err(DbError::Shape(format!("column {i} is of type {ty}")));
            })
        })
        .collect::<std::result::Result<Vec<_>, _>>()
        .map(Row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_placeholders_read_as_sqlites() {
        assert_eq!(
            sqlite_sql("UPDATE t SET a = $2 WHERE b = $1 AND c = '$x'"),
            "UPDATE t SET a = ?2 WHERE b = ?1 AND c = '$x'"
        );
        assert_eq!(sqlite_sql("SELECT $10, $1"), "SELECT ?10, ?1");
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! The databases a store test runs against: SQLite always, PostgreSQL when `scripts/test`
    //! started one (else the test says it ran on SQLite only).

    use std::path::PathBuf;

    use super::*;

    /// Where a test's database lives, so it can be opened again (a restarted server).
    pub enum Place {
        /// The file, and the folder it is in (removed when the place is dropped).
        Sqlite(PathBuf, #[allow(dead_code)] tempfile::TempDir),
        Postgres(String),
    }

    impl Place {
        /// Opens (the first time: creates and migrates) the database.
        pub fn open(&self) -> Db {
            match self {
                Place::Sqlite(path, _) => Db::Sqlite(Arc::new(Shared::new(
                    crate::store::db::open(path, "test").unwrap(),
                ))),
                Place::Postgres(url) => Db::Postgres(Pg::connect(url).unwrap()),
            }
        }

        /// The SQLite file, if that is where it is.
        pub fn sqlite_path(&self) -> Option<&PathBuf> {
            match self {
                Place::Sqlite(path, _) => Some(path),
                Place::Postgres(_) => None,
            }
        }
    }

    /// A fresh database of each backend the tests can reach.
    pub fn places(test: &str) -> Vec<Place> {
        let dir = tempfile::tempdir().unwrap();
        let mut places = vec![Place::Sqlite(
            dir.path().join("devnet/tronpool.sqlite3"),
            dir,
        )];
        if let Some(url) = test_support::postgres::fresh_database(test) {
            places.push(Place::Postgres(url));
        }
        places
    }
}
