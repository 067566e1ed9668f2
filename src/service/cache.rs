//! Chain reads kept for about a block, fetched once however many callers ask at the same time.
//!
//! A pool's root, balance and deposit count change at most once a block (3 s on TRON), so a
//! burst of API clients asking for them must not become a burst of node calls. The fast path
//! is one short lock and an `Arc` clone; a stale or empty entry is refreshed by exactly one
//! caller while the others wait for its answer. Failures are kept too, for a shorter time:
//! with the node down, a hundred waiting clients get the one error instead of each trying
//! (and timing out) in turn.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// How long a failed fetch is remembered.
const ERROR_TTL: Duration = Duration::from_secs(1);

/// Values forgotten on purpose ([`Cached::invalidate`]) so far, by every cache in the process.
static INVALIDATIONS: AtomicU64 = AtomicU64::new(0);

/// How many values have been forgotten on purpose so far. An answer made from cached values
/// (the API's repeated listings, `api::hot`) is kept with this count and not repeated once it
/// has moved: a transaction we sent, or a job the relayer took, changed something it showed.
/// Any cache counts, which only ever costs an answer made again.
pub(crate) fn invalidations() -> u64 {
    INVALIDATIONS.load(Ordering::Acquire)
}

/// One cached value.
pub struct Cached<T> {
    /// Names the cache in metrics (`tronpool_cache_reads_total{cache, result}`).
    name: &'static str,
    ttl: Duration,
    slot: Mutex<Option<Entry<T>>>,
    /// Held by the caller that refreshes; the others queue on it and then read its result.
    refresh: tokio::sync::Mutex<()>,
}

struct Entry<T> {
    at: Instant,
    value: Result<Arc<T>, Arc<Error>>,
}

impl<T> Entry<T> {
    fn fresh(&self, ttl: Duration) -> bool {
        let ttl = if self.value.is_ok() {
            ttl
        } else {
            ERROR_TTL.min(ttl)
        };
        self.at.elapsed() < ttl
    }
}

impl<T> Cached<T> {
    pub fn new(name: &'static str, ttl: Duration) -> Self {
        Cached {
            name,
            ttl,
            slot: Mutex::new(None),
            refresh: tokio::sync::Mutex::new(()),
        }
    }

    fn current(&self) -> Option<Result<Arc<T>>> {
        let slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        slot.as_ref().filter(|e| e.fresh(self.ttl)).map(|e| {
            e.value
                .as_ref()
                .map(Arc::clone)
                .map_err(|e| Error::Shared(Arc::clone(e)))
        })
    }

    /// The cached value if fresh, otherwise what `fetch` returns (and is then cached).
    pub async fn get<F, Fut>(&self, fetch: F) -> Result<Arc<T>>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T>>,
    {
        if let Some(hit) = self.current() {
            self.count("hit");
            return hit;
        }
        let _refreshing = self.refresh.lock().await;
        // Someone else may have refreshed while we queued: a hit that waited.
        if let Some(hit) = self.current() {
            self.count("hit");
            return hit;
        }
        self.count("miss");
        let value = fetch().await.map(Arc::new).map_err(Arc::new);
        let answer = value
            .as_ref()
            .map(Arc::clone)
            .map_err(|e| Error::Shared(Arc::clone(e)));
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Entry {
            at: Instant::now(),
            value,
        });
        answer
    }

    /// Through the `metrics` facade: nothing unless `serve` installed its recorder.
    fn count(&self, result: &'static str) {
        metrics::counter!("tronpool_cache_reads_total", "cache" => self.name, "result" => result)
            .increment(1);
    }

    /// Forgets the value, so the next read goes to the chain (after a transaction we know
    /// changed it).
    pub(crate) fn invalidate(&self) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = None;
        INVALIDATIONS.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_burst_makes_one_fetch() {
        let cache = Arc::new(Cached::<u64>::new("test", Duration::from_secs(60)));
        let calls = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..50 {
            let (cache, calls) = (cache.clone(), calls.clone());
            tasks.push(tokio::spawn(async move {
                cache
                    .get(|| async {
                        calls.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        Ok(7)
                    })
                    .await
                    .map(|v| *v)
            }));
        }
        for t in tasks {
            assert_eq!(t.await.unwrap().unwrap(), 7);
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn failures_are_shared_then_retried() {
        let cache = Cached::<u64>::new("test", Duration::from_millis(10));
        let failed = cache
            .get(|| async { Err(Error::Failed("node down".into())) })
            .await;
        assert_eq!(failed.unwrap_err().to_string(), "node down");
        let still = cache.get(|| async { Ok(1) }).await;
        assert!(still.is_err(), "a failure is remembered briefly");
        tokio::time::sleep(Duration::from_millis(15)).await;
        assert_eq!(*cache.get(|| async { Ok(2) }).await.unwrap(), 2);
        cache.invalidate();
        assert_eq!(*cache.get(|| async { Ok(3) }).await.unwrap(), 3);
    }
}
