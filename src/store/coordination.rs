//! How `serve`'s processes on one database take turns: a turn (one relay approved at a time
//! across every replica), named leases (one replica collects fees, one batches), rate
//! budgets kept in the database (a client's relayer limit holds whichever replica it
//! reaches), and spending budgets (what the batcher lost in the last day, whichever replica
//! batched).
//!
//! On SQLite there is one process, and its own locks already give it turns; the leases and
//! budgets run the same SQL as on PostgreSQL, so the same tests hold them to one behaviour.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::store::pg::Pg;
use crate::store::sql::{Db, DbError, params};

/// What a process on the database calls itself in leases: its host's process id and a random
/// part, new at every start (a restarted replica does not inherit the dead one's leases;
/// they run out).
pub fn process_owner() -> String {
    use rand_core::RngCore;
    format!("{}-{:08x}", std::process::id(), rand_core::OsRng.next_u32())
}

/// The database's part in coordinating `serve`'s processes.
#[derive(Clone)]
pub struct Coordination {
    db: Db,
    owner: String,
}

/// A turn held: another process asking for the same turn waits until this is dropped (or
/// until this process dies: the turn goes with its connection).
pub struct Turn {
    held: Option<(Arc<Pg>, deadpool_postgres::Object, i64)>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some((pg, client, key)) = self.held.take() {
            // Unlocked before the connection goes back to the pool; on the pool's runtime,
            // since a drop cannot wait.
            pg.spawn(async move {
                if let Err(e) = client
                    .execute("SELECT pg_advisory_unlock($1)", &[&key])
                    .await
                {
                    tracing::warn!(error = %e, "releasing a turn on the database");
                    // A connection whose unlock failed must not hold the lock for whoever
                    // takes it next: drop it instead of returning it.
                    let _ = deadpool_postgres::Object::take(client);
                }
            });
        }
    }
}

/// A rate budget's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Counted.
    Allowed,
    /// Over budget: the next request is allowed after this many ms.
    Wait(i64),
}

fn db_error(e: DbError) -> Error {
    e.at("coordinating with the other servers on the database")
}

impl Coordination {
    pub fn new(db: Db, owner: impl Into<String>) -> Self {
        Coordination {
            db,
            owner: owner.into(),
        }
    }

    /// Whether other processes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.db.is_postgres()
    }

    /// Waits for the turn named `key`, held until the answer is dropped. On PostgreSQL an
    /// advisory lock on a connection of its own; on SQLite (one process) nothing, since the
    /// caller's own lock already makes the turn.
    pub async fn turn(&self, key: i64) -> Result<Turn> {
        let Db::Postgres(pg) = &self.db else {
            return Ok(Turn { held: None });
        };
        let pool = pg.clone();
        let client = pg
            .run(async move {
                let client = pool.client().await?;
                client
                    .execute("SELECT pg_advisory_lock($1)", &[&key])
                    .await
                    .map_err(DbError::from)?;
                Ok::<_, DbError>(client)
            })
            .await
            .map_err(db_error)?;
        Ok(Turn {
            held: Some((pg.clone(), client, key)),
        })
    }

    /// Takes the lease `name` for `ms`, or renews it if it is ours; answers whether we hold
    /// it now. A lease nobody renews runs out, and the next process to ask takes it.
    pub fn hold_lease(&self, name: &str, ms: i64) -> Result<bool> {
        let now = tron::transaction::now_ms();
        let rows = self
            .db
            .query(
                "INSERT INTO leases (name, owner, until) VALUES ($1, $2, $3)
                 ON CONFLICT (name) DO UPDATE SET owner = $2, until = $3
                     WHERE leases.owner = $2 OR leases.until < $4
                 RETURNING owner",
                params![name, self.owner.as_str(), now + ms, now],
            )
            .map_err(db_error)?;
        Ok(rows
            .iter()
            .any(|r| r.text(0).is_ok_and(|o| o == self.owner)))
    }

    /// Gives the lease `name` up, if it is ours (a clean stop), so another process need not
    /// wait for it to run out.
    pub fn release_lease(&self, name: &str) -> Result<()> {
        self.db
            .execute(
                "DELETE FROM leases WHERE name = $1 AND owner = $2",
                params![name, self.owner.as_str()],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Counts one request of `client` against `budget`: GCRA with one request's worth coming
    /// back every `interval_ms` and a burst of `burst`, as the per-process limits count
    /// (`api::limits`), but with the state (each client's theoretical arrival time) in the
    /// database, updated in one statement, so every process counts against the same budget.
    pub fn take(&self, budget: &str, client: &str, interval_ms: i64, burst: i64) -> Result<Budget> {
        let now = tron::transaction::now_ms();
        let allowance = interval_ms * burst;
        // The new arrival time is max(tat, now) + interval; it is allowed if that is within
        // the burst's allowance of now. A refused request leaves the state as it was.
        let rows = self
            .db
            .query(
                "INSERT INTO rate_budgets (budget, client, tat) VALUES ($1, $2, $6)
                 ON CONFLICT (budget, client) DO UPDATE SET tat =
                     CASE WHEN rate_budgets.tat > $3 THEN rate_budgets.tat ELSE $3 END + $4
                     WHERE (CASE WHEN rate_budgets.tat > $3 THEN rate_budgets.tat ELSE $3 END)
                         + $4 - $5 <= $3
                 RETURNING tat",
                params![
                    budget,
                    client,
                    now,
                    interval_ms,
                    allowance,
                    now + interval_ms
                ],
            )
            .map_err(db_error)?;
        if !rows.is_empty() {
            return Ok(Budget::Allowed);
        }
        let tat = self
            .db
            .query_one(
                "SELECT tat FROM rate_budgets WHERE budget = $1 AND client = $2",
                params![budget, client],
            )
            .map_err(db_error)?
            .and_then(|r| r.int(0).ok())
            .unwrap_or(now);
        Ok(Budget::Wait((tat + interval_ms - allowance - now).max(1)))
    }

    /// Records `sun` spent against the budget `budget` now.
    pub fn spend(&self, budget: &str, sun: i64) -> Result<()> {
        self.db
            .execute(
                "INSERT INTO budget_spent (budget, at, sun) VALUES ($1, $2, $3)",
                params![budget, tron::transaction::now_ms(), sun],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// What was spent against `budget` in the last `window_ms`; older records are dropped.
    pub fn spent_within(&self, budget: &str, window_ms: i64) -> Result<i64> {
        let since = tron::transaction::now_ms() - window_ms;
        self.db
            .execute(
                "DELETE FROM budget_spent WHERE budget = $1 AND at < $2",
                params![budget, since],
            )
            .map_err(db_error)?;
        self.db
            .query_one(
                "SELECT CAST(COALESCE(SUM(sun), 0) AS BIGINT) FROM budget_spent
                 WHERE budget = $1 AND at >= $2",
                params![budget, since],
            )
            .map_err(db_error)?
            .map_or(Ok(0), |row| row.int(0))
            .map_err(db_error)
    }

    /// Forgets the clients whose budget is full again (their arrival time is past), so the
    /// table holds the clients of the last minute or so.
    pub fn sweep_budgets(&self) -> Result<u64> {
        self.db
            .execute(
                "DELETE FROM rate_budgets WHERE tat < $1",
                params![tron::transaction::now_ms()],
            )
            .map_err(db_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::db::Shared;

    fn sqlite() -> Db {
        Db::Sqlite(Arc::new(Shared::new(
            crate::store::db::in_memory("test").unwrap(),
        )))
    }

    /// Every backend the tests can reach: SQLite always, PostgreSQL when scripts/test
    /// started one.
    fn backends(test: &str) -> Vec<Db> {
        let mut dbs = vec![sqlite()];
        if let Some(pg) = crate::store::pg::testing::fresh(test) {
            dbs.push(Db::Postgres(pg));
        }
        dbs
    }

    #[test]
    fn a_lease_is_held_by_one_owner_until_it_runs_out_or_is_given_up() {
        for db in backends("leases") {
            let a = Coordination::new(db.clone(), "a");
            let b = Coordination::new(db.clone(), "b");
            assert!(a.hold_lease("fees", 60_000).unwrap(), "{}", db.backend());
            assert!(!b.hold_lease("fees", 60_000).unwrap());
            assert!(
                a.hold_lease("fees", 60_000).unwrap(),
                "renewed by its owner"
            );
            assert!(b.hold_lease("batcher", 60_000).unwrap(), "another name");
            a.release_lease("fees").unwrap();
            assert!(b.hold_lease("fees", 1).unwrap(), "given up");
            std::thread::sleep(std::time::Duration::from_millis(5));
            assert!(a.hold_lease("fees", 60_000).unwrap(), "ran out");
            assert!(!b.hold_lease("fees", 60_000).unwrap());
        }
    }

    #[test]
    fn a_shared_budget_allows_its_burst_then_one_request_per_interval() {
        for db in backends("budgets") {
            let one = Coordination::new(db.clone(), "one");
            let two = Coordination::new(db.clone(), "two");
            // 5 a minute: a burst of 5, then one every 12 s, whichever process counts.
            for i in 0..5 {
                let by = if i % 2 == 0 { &one } else { &two };
                assert_eq!(
                    by.take("relayer_withdraw", "10.0.0.1", 12_000, 5).unwrap(),
                    Budget::Allowed,
                    "{} request {i}",
                    db.backend()
                );
            }
            let Budget::Wait(ms) = two.take("relayer_withdraw", "10.0.0.1", 12_000, 5).unwrap()
            else {
                panic!("the 6th is over budget on {}", db.backend());
            };
            assert!((1..=12_000).contains(&ms), "{ms}");
            // Another client and another budget are apart.
            assert_eq!(
                one.take("relayer_withdraw", "10.0.0.2", 12_000, 5).unwrap(),
                Budget::Allowed
            );
            assert_eq!(
                one.take("relayer_status", "10.0.0.1", 12_000, 5).unwrap(),
                Budget::Allowed
            );
            // A refused request did not move the client's state: after the interval, one more.
            let mut allowed = 0;
            for _ in 0..3 {
                if one.take("fast", "c", 1, 1).unwrap() == Budget::Allowed {
                    allowed += 1;
                }
                std::thread::sleep(std::time::Duration::from_millis(3));
            }
            assert_eq!(allowed, 3, "one a ms with a pause of 3 ms");
            assert!(one.sweep_budgets().unwrap() >= 1);
        }
    }

    #[test]
    fn what_one_process_spent_counts_for_the_other_within_the_window() {
        for db in backends("spending") {
            let one = Coordination::new(db.clone(), "one");
            let two = Coordination::new(db.clone(), "two");
            assert_eq!(one.spent_within("batch", 60_000).unwrap(), 0);
            one.spend("batch", 40_000_000).unwrap();
            two.spend("batch", 2_000_000).unwrap();
            two.spend("other", 9).unwrap();
            assert_eq!(
                two.spent_within("batch", 60_000).unwrap(),
                42_000_000,
                "{}",
                db.backend()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
            assert_eq!(
                one.spent_within("batch", 2).unwrap(),
                0,
                "out of the window"
            );
            assert_eq!(one.spent_within("other", 60_000).unwrap(), 9);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_turn_on_postgres_is_held_by_one_process_at_a_time() {
        let Some(pg) = crate::store::pg::testing::fresh("turns") else {
            return;
        };
        let a = Coordination::new(Db::Postgres(pg.clone()), "a");
        let b = Coordination::new(Db::Postgres(pg), "b");
        let held = a.turn(7).await.unwrap();
        let waiting = tokio::spawn(async move { b.turn(7).await.map(|_| ()) });
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "the second waits for the first");
        drop(held);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("the turn passes on")
            .unwrap()
            .unwrap();
    }
}
