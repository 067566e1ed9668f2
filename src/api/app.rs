//! What the handlers share: the chain, the relayer and its prices, the tree cache, the limits,
//! and the server's settings.

use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderValue;
use ipnet::IpNet;

use crate::error::{Error, Result};
use crate::service::cache::Cached;
use crate::service::chain::Chain;
use crate::service::health::Readiness;
use crate::service::inputs;
use crate::service::relayer::Relayer;
use crate::service::relayer_fees::Pricing;
use crate::service::sync::TreeCache;
use crate::service::wire::NextBatch;

use super::limits::RateLimits;
use super::listings::Listings;

/// How the server behaves; every field has a flag on `tronpool serve`.
#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Requests per client per minute on the general endpoints.
    pub rate_limit: u32,
    /// Requests per client per minute on `/api/relayer/*`.
    pub relayer_rate_limit: u32,
    /// Reverse proxies (addresses or CIDR ranges) whose `Forwarded`/`X-Forwarded-For` names
    /// the client.
    pub trusted_proxies: Vec<IpNet>,
    /// Origins a browser may call from; empty means any.
    pub cors_origins: Vec<HeaderValue>,
    /// Largest request body, in bytes.
    pub body_limit: usize,
    /// Longest a request may take before it is answered 504.
    pub request_timeout: Duration,
    /// Most requests in flight at once; past it a request is answered 503 at once.
    pub max_in_flight: usize,
    /// How long a connection may take to send a request's headers, and how long a kept-alive
    /// connection may sit idle before its next request: past it, it is closed.
    pub header_read_timeout: Duration,
    /// Serve the web page at `/` (`serve --no-web` turns it off).
    pub web: bool,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig {
            rate_limit: 120,
            relayer_rate_limit: 5,
            trusted_proxies: Vec::new(),
            cors_origins: Vec::new(),
            body_limit: 64 * 1024,
            request_timeout: Duration::from_secs(30),
            max_in_flight: 512,
            header_read_timeout: Duration::from_secs(10),
            web: true,
        }
    }
}

/// What the handlers share.
pub struct App {
    pub chain: Arc<Chain>,
    /// The relayer's fee policy and its TRX/USDT price (also what `GET /api/pools` quotes).
    pub pricing: Pricing,
    /// `None`: relaying is off (503 on withdraw, `enabled: false` in the status).
    pub relayer: Option<Arc<Relayer>>,
    /// The pools' synced leaves and withdrawals, served to clients that sync from here.
    pub trees: TreeCache,
    pub config: ApiConfig,
    pub limits: RateLimits,
    /// The readiness report, computed at most once a second (the probes are not limited).
    pub(super) readiness: Cached<Readiness>,
    /// One permit per request in flight (see [`super::layers::shed_load`]).
    pub(super) in_flight: Arc<tokio::sync::Semaphore>,
    /// The pool listings' last bytes (see [`Listings`]).
    pub(super) listings: Listings,
    /// What the web page asks for besides the API, read once.
    pub(super) page: crate::service::web::PageAssets,
}

impl App {
    pub fn new(chain: Chain, pricing: Pricing, config: ApiConfig) -> Self {
        App {
            limits: RateLimits::new(
                config.rate_limit,
                config.relayer_rate_limit,
                &config.trusted_proxies,
            ),
            readiness: Cached::new("readiness", Duration::from_secs(1)),
            listings: Listings::default(),
            page: Default::default(),
            in_flight: Arc::new(tokio::sync::Semaphore::new(
                config
                    .max_in_flight
                    .clamp(1, tokio::sync::Semaphore::MAX_PERMITS),
            )),
            chain: Arc::new(chain),
            relayer: None,
            trees: TreeCache::in_memory().expect("an in-memory database opens"),
            pricing,
            config,
        }
    }

    /// Serves the pools' leaves and withdrawals from this cache (by default, one in memory).
    pub fn with_trees(mut self, trees: TreeCache) -> Self {
        self.trees = trees;
        self
    }

    /// Relays withdrawals with this relayer.
    pub fn with_relayer(mut self, relayer: Relayer) -> Self {
        self.relayer = Some(Arc::new(relayer));
        self
    }

    /// The relayer's fee terms at this moment's prices, for the pool listings: none without
    /// a price (the listing still answers; `GET /api/relayer/status` says why). With a
    /// relayer, they are what a new request would be charged: its stake and its pools'
    /// sponsors less what its unfinished jobs reserved.
    pub(crate) async fn fee_terms(&self) -> Option<crate::service::relayer_fees::Terms<'_>> {
        match &self.relayer {
            Some(relayer) => relayer.listing_terms(&self.chain, &self.pricing).await.ok(),
            None => self
                .pricing
                .terms(&self.chain, Default::default())
                .await
                .ok(),
        }
    }

    /// A queued pool's next batch as this server's batcher last saw it; `None` without a
    /// relayer (and so without a batcher).
    pub(crate) fn next_batch(&self, denomination: u64) -> Option<NextBatch> {
        self.relayer.as_ref()?.next_batch(denomination)
    }

    /// Keeps the relayer fees a pool listing showed, so the relayer honours them for
    /// [`crate::service::relayer::QUOTE_HOLD`].
    pub(crate) fn shown_fees<'a>(
        &self,
        terms: Option<&crate::service::relayer_fees::Terms<'_>>,
        pools: impl IntoIterator<Item = &'a crate::service::pools::PoolRead>,
    ) {
        let (Some(relayer), Some(terms)) = (&self.relayer, terms) else {
            return;
        };
        let per_trx = terms.refund_fee(1_000_000);
        relayer.remember_fees(
            pools
                .into_iter()
                .filter_map(|read| Some((read.denomination, read.fee?, per_trx))),
        );
    }

    /// A denomination from a path segment: 400 when it is not a whole number of USDT, 404
    /// (naming the pools there are) when no pool has it.
    pub fn denomination(&self, text: &str) -> Result<u64> {
        let denomination = inputs::denomination(text).ok_or_else(|| {
            Error::usage("denomination must be a pool's size in whole USDT, like 100")
        })?;
        if self.chain.deployment.pool(denomination).is_none() {
            return Err(self.chain.unknown_pool(text));
        }
        Ok(denomination)
    }

    /// A denomination from a body field: `100` or `"100"`.
    pub(crate) fn denomination_field(&self, value: &serde_json::Value) -> Result<u64> {
        match value {
            serde_json::Value::String(s) => self.denomination(s),
            serde_json::Value::Number(n) => self.denomination(&n.to_string()),
            _ => Err(Error::usage(
                "denomination must be a pool's size in USDT, like 100 or \"100\"",
            )),
        }
    }
}
