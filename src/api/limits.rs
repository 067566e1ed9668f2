//! Per-client rate limits, and who the client is.
//!
//! Each budget is governor's GCRA (through `tower_governor`): `limit` requests a minute with
//! a burst of `limit`, one request's worth coming back every `60 s / limit`, so a client that
//! waits is never locked out for a whole window and there is no window edge to double up on.
//! The general endpoints (and `/api/relayer/jobs/*`, a cheap read a client polls) share one
//! budget; `/api/relayer/status` and `/api/relayer/withdraw` have one each, so polling the
//! status cannot use up a withdrawal's. The probes (`/api/health`, `/livez`, `/readyz`) are
//! never limited: an orchestrator must always get an answer.
//!
//! The client is its address, an IPv6 client its /64 (one customer's allocation: counting each
//! of its 2^64 addresses apart would give it 2^64 budgets), with IPv4-mapped IPv6 read as the
//! IPv4 address it is. Behind a reverse proxy every request comes from the proxy, so the client
//! is read from `Forwarded` or `X-Forwarded-For`, but only when the connection comes from a
//! proxy the operator named (an address or a CIDR range): otherwise anyone could claim any
//! address and never be limited.
//!
//! Memory: governor keeps one small state per key and forgets nothing by itself, so
//! [`RateLimits::sweep`] runs `retain_recent` every [`SWEEP_EVERY`]: a key whose budget is full
//! again is dropped. A key's budget is full again at most a minute after its last request, so
//! the store holds the clients of the last minute or so and never grows with the total number
//! of clients ever seen.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Request, Response, StatusCode};
use axum::response::IntoResponse;
use governor::middleware::StateInformationMiddleware;
use ipnet::IpNet;
use tower_governor::GovernorError;
use tower_governor::GovernorLayer;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;

use super::errors::ApiError;

/// How often the limiters forget the clients whose budget is full again.
pub(crate) const SWEEP_EVERY: Duration = Duration::from_secs(10);

const MINUTE: Duration = Duration::from_secs(60);

/// Who a request counts against: an IPv4 address, or an IPv6 /64 (the rest zeroed).
pub(crate) type ClientKey = IpAddr;

/// One budget's configuration, as `tower_governor` takes it.
pub(crate) type Budget = GovernorConfig<ClientKeyExtractor, StateInformationMiddleware>;

/// The layer that counts requests against one budget.
pub(crate) type BudgetLayer = GovernorLayer<ClientKeyExtractor, StateInformationMiddleware, Body>;

/// Reads the client from the peer address and, from a trusted proxy, the forwarding headers.
#[derive(Debug, Clone)]
pub struct ClientKeyExtractor {
    trusted: Arc<[IpNet]>,
}

impl ClientKeyExtractor {
    pub fn new(trusted: &[IpNet]) -> Self {
        ClientKeyExtractor {
            trusted: trusted.iter().map(|n| normalize_net(*n)).collect(),
        }
    }

    fn is_trusted(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(&ip))
    }

    /// The client's address: the peer, or, when the peer is a trusted proxy, the nearest
    /// address in the forwarding headers that is not one of our proxies.
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.is_trusted(peer) {
            return peer;
        }
        let mut client = peer;
        // `Forwarded` (RFC 7239) when the proxy sends it, else `X-Forwarded-For`.
        let hops = forwarded_hops(headers).unwrap_or_else(|| x_forwarded_for_hops(headers));
        for hop in hops.iter().rev() {
            match parse_hop(hop).map(canonical) {
                Some(ip) if self.is_trusted(ip) => client = ip,
                Some(ip) => return ip,
                // A garbled or obfuscated entry: everything left of it is the client's word,
                // not a proxy's.
                None => return client,
            }
        }
        client
    }
}

impl KeyExtractor for ClientKeyExtractor {
    type Key = ClientKey;

    fn extract<T>(&self, req: &Request<T>) -> Result<ClientKey, GovernorError> {
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .ok_or(GovernorError::UnableToExtractKey)?;
        Ok(key_of(self.client_address(peer, req.headers())))
    }
}

/// The budget an address counts against: itself for IPv4, its /64 for IPv6.
pub(crate) fn key_of(ip: IpAddr) -> ClientKey {
    match canonical(ip) {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(prefix))
        }
    }
}

/// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack socket reports for an
/// IPv4 peer) as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

fn normalize_net(net: IpNet) -> IpNet {
    match net {
        IpNet::V6(v6) if v6.prefix_len() >= 96 => match v6.addr().to_ipv4_mapped() {
            Some(v4) => IpNet::new(IpAddr::V4(v4), v6.prefix_len() - 96).unwrap_or(net),
            None => net,
        },
        other => other,
    }
}

/// A trusted proxy as the operator writes it: an address (`10.0.0.1`, `::1`) or a range
/// (`10.0.0.0/8`, `fd00::/8`).
pub(crate) fn parse_proxy(text: &str) -> Result<IpNet, NotAProxy> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map(normalize_net)
        .map_err(|_| NotAProxy(text.to_owned()))
}

/// A `--trusted-proxy` that is neither an address nor a range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is neither an IP address nor a CIDR range")]
pub(crate) struct NotAProxy(String);

/// The `for=` of each element of every `Forwarded` header, left to right; `None` without one.
fn forwarded_hops(headers: &HeaderMap) -> Option<Vec<String>> {
    let values: Vec<_> = headers.get_all("forwarded").iter().collect();
    if values.is_empty() {
        return None;
    }
    let mut hops = Vec::new();
    for value in values {
        let Ok(value) = value.to_str() else {
            // Unreadable: nothing in it can be believed, and nothing left of it either.
            hops.clear();
            hops.push(String::new());
            continue;
        };
        for element in value.split(',') {
            let hop = element
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
                .map(|(_, v)| v.trim().to_owned())
                .unwrap_or_default();
            hops.push(hop);
        }
    }
    Some(hops)
}

fn x_forwarded_for_hops(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|v| match v.to_str() {
            Ok(v) => v.split(',').map(|h| h.trim().to_owned()).collect(),
            Err(_) => vec![String::new()],
        })
        .collect()
}

/// One hop's address: `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:80`, quoted or
/// not (as `Forwarded` quotes IPv6). `unknown` and obfuscated names are `None`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim().trim_matches('"');
    if hop.len() > 64 {
        return None;
    }
    if let Some(rest) = hop.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        if !(after.is_empty() || after.starts_with(':')) {
            return None;
        }
        return inside.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    // `a.b.c.d:port`: exactly one colon, so never a bare IPv6 address.
    let (host, port) = hop.split_once(':')?;
    if port.contains(':') || port.parse::<u16>().is_err() {
        return None;
    }
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// One budget and its size.
#[derive(Clone)]
pub struct Limit {
    pub budget: Arc<Budget>,
    pub per_minute: u32,
    /// Its name in the metrics.
    pub name: &'static str,
}

impl Limit {
    /// Takes one request from `req`'s client's budget, as the layer would: the requests left,
    /// or `None` when none is (or the client has no address), and nothing was taken.
    pub(crate) fn take<B>(&self, extractor: &ClientKeyExtractor, req: &Request<B>) -> Option<u32> {
        let key = extractor.extract(req).ok()?;
        let state = self.budget.limiter().check_key(&key).ok()?;
        Some(state.remaining_burst_capacity())
    }

    fn new(name: &'static str, per_minute: u32, extractor: &ClientKeyExtractor) -> Self {
        let per_minute = per_minute.max(1);
        Limit {
            budget: Arc::new(budget(per_minute, extractor)),
            per_minute,
            name,
        }
    }
}

/// The server's budgets: one general, one per relayer endpoint.
#[derive(Clone)]
pub struct RateLimits {
    pub general: Limit,
    pub relayer_status: Limit,
    pub relayer_withdraw: Limit,
    /// Who a request counts against (for the budgets kept in the database).
    pub extractor: ClientKeyExtractor,
}

impl RateLimits {
    pub fn new(general: u32, relayer: u32, trusted: &[IpNet]) -> Self {
        let extractor = ClientKeyExtractor::new(trusted);
        RateLimits {
            general: Limit::new("general", general, &extractor),
            relayer_status: Limit::new("relayer_status", relayer, &extractor),
            relayer_withdraw: Limit::new("relayer_withdraw", relayer, &extractor),
            extractor,
        }
    }

    fn all(&self) -> [&Arc<Budget>; 3] {
        [
            &self.general.budget,
            &self.relayer_status.budget,
            &self.relayer_withdraw.budget,
        ]
    }

    /// Forgets every client whose budget is full again (it would start afresh anyway).
    pub(crate) fn sweep(&self) {
        for budget in self.all() {
            budget.limiter().retain_recent();
            budget.limiter().shrink_to_fit();
        }
    }

    /// How many clients the budgets track, together.
    #[cfg(test)]
    pub(crate) fn tracked(&self) -> usize {
        self.all().iter().map(|b| b.limiter().len()).sum()
    }

    /// Sweeps every [`SWEEP_EVERY`] until the server stops.
    pub(crate) async fn sweep_forever(self) {
        let mut ticks = tokio::time::interval(SWEEP_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            self.sweep();
        }
    }
}

/// `limit` requests a minute, in a burst of up to `limit`.
fn budget(limit: u32, extractor: &ClientKeyExtractor) -> Budget {
    GovernorConfigBuilder::default()
        .period((MINUTE / limit).max(Duration::from_nanos(1)))
        .burst_size(limit)
        .key_extractor(extractor.clone())
        .use_headers()
        .finish()
        .expect("a period and a burst above zero")
}

/// The layer for `limit`: past it, 429 in the envelope with `retry-after` and the
/// `ratelimit-*` headers.
pub fn layer(limit: &Limit) -> BudgetLayer {
    let (per_minute, name) = (limit.per_minute, limit.name);
    GovernorLayer::new(limit.budget.clone()).error_handler(move |e| limited(e, per_minute, name))
}

fn limited(error: GovernorError, limit: u32, name: &'static str) -> Response<Body> {
    match error {
        // governor's wait is truncated to whole seconds: the true wait is below one more.
        GovernorError::TooManyRequests { wait_time, .. } => too_many(name, limit, wait_time + 1),
        other => {
            tracing::error!(error = %other, "cannot tell who the client is");
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the client's address is unknown",
            )
            .into_response()
        }
    }
}

/// 429 in the envelope, with `retry-after` (whole seconds) and the `ratelimit-*` headers.
fn too_many(name: &'static str, limit: u32, retry: u64) -> Response<Body> {
    super::metrics::rate_limited(name);
    tracing::info!(retry_after = retry, budget = name, "rate limited");
    let mut response = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("rate limited: {limit} requests a minute; retry in {retry} s"),
    )
    .into_response();
    let headers = response.headers_mut();
    write_headers(headers, limit, 0);
    headers.insert("retry-after", HeaderValue::from(retry));
    response
}

/// A relayer budget counted again in the database when servers share one (`serve --database
/// postgres://…`), so a client that spreads its requests over the replicas gets the same `limit`
/// a minute in all, not per replica. Inside the per-process limiter: what one replica refuses
/// never reaches the database. Alone on its database a server has nothing to share, and this
/// passes the request on.
#[derive(Clone)]
pub(crate) struct SharedBudget {
    pub relayer: Option<Arc<crate::service::relayer::Relayer>>,
    pub extractor: ClientKeyExtractor,
    pub name: &'static str,
    pub limit: u32,
}

pub(crate) async fn shared_budget(
    axum::extract::State(shared): axum::extract::State<SharedBudget>,
    request: Request<Body>,
    next: axum::middleware::Next,
) -> Response<Body> {
    let Some(relayer) = shared.relayer.as_ref() else {
        return next.run(request).await;
    };
    let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() else {
        return next.run(request).await;
    };
    let client = key_of(
        shared
            .extractor
            .client_address(peer.ip(), request.headers()),
    );
    match relayer.take_shared_budget(shared.name, &client.to_string(), shared.limit) {
        Ok(None) => next.run(request).await,
        Ok(Some(ms)) => too_many(shared.name, shared.limit.max(1), (ms as u64).div_ceil(1000)),
        Err(e) => ApiError::from(e).into_response(),
    }
}

/// `ratelimit-limit`, `-remaining`, and `-reset`: the seconds until the whole budget is back
/// (at most; GCRA returns one request's worth every `60 s / limit`).
pub(super) fn write_headers(headers: &mut HeaderMap, limit: u32, remaining: u32) {
    let spent = u64::from(limit.saturating_sub(remaining));
    let reset = (spent * 60).div_ceil(u64::from(limit.max(1)));
    headers.insert(LIMIT, HeaderValue::from(limit));
    headers.insert(REMAINING, HeaderValue::from(remaining));
    headers.insert(RESET, HeaderValue::from(reset));
}

// The headers' names, made once (a name given as text is parsed for every insert).
const LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
const REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
const RESET: HeaderName = HeaderName::from_static("ratelimit-reset");

/// Turns the limiter's `x-ratelimit-*` headers on an allowed request into the `ratelimit-*`
/// ones this API has always sent (and documents), with the reset time added.
pub(crate) async fn rename_headers(
    mut response: axum::response::Response,
) -> axum::response::Response {
    let headers = response.headers_mut();
    let number = |v: Option<HeaderValue>| v.and_then(|v| v.to_str().ok()?.parse::<u32>().ok());
    let limit = number(headers.remove("x-ratelimit-limit"));
    let remaining = number(headers.remove("x-ratelimit-remaining"));
    headers.remove("x-ratelimit-after");
    headers.remove("x-ratelimit-whitelisted");
    if let (Some(limit), Some(remaining)) = (limit, remaining) {
        write_headers(headers, limit, remaining);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn proxies(list: &[&str]) -> ClientKeyExtractor {
        let nets: Vec<IpNet> = list.iter().map(|p| parse_proxy(p).unwrap()).collect();
        ClientKeyExtractor::new(&nets)
    }

    fn xff(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let keys = proxies(&["127.0.0.1"]);
        let headers = xff("6.6.6.6, 203.0.113.7");
        let stranger = ip("198.51.100.1");
        assert_eq!(keys.client_address(stranger, &headers), stranger);
        assert_eq!(
            keys.client_address(ip("127.0.0.1"), &headers),
            ip("203.0.113.7"),
            "the proxy's own entry, not the spoofable leftmost one"
        );
        assert_eq!(
            keys.client_address(ip("127.0.0.1"), &xff("nonsense")),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn proxies_by_range_mapped_addresses_ports_and_brackets() {
        let keys = proxies(&["10.0.0.0/8", "::ffff:192.0.2.1", "fd00::/8"]);
        // A dual-stack socket reports an IPv4 proxy as IPv4-mapped IPv6.
        assert_eq!(
            keys.client_address(ip("::ffff:10.1.2.3"), &xff("203.0.113.9:4711")),
            ip("203.0.113.9")
        );
        assert_eq!(
            keys.client_address(ip("192.0.2.1"), &xff("[2001:db8::7]:443")),
            ip("2001:db8::7")
        );
        // Two proxies in a row, both ours: the client is left of them.
        assert_eq!(
            keys.client_address(ip("10.0.0.1"), &xff("198.51.100.4, fd00::1, 10.9.9.9")),
            ip("198.51.100.4")
        );
        let mut forwarded = HeaderMap::new();
        forwarded.insert(
            "forwarded",
            "for=198.51.100.1, for=\"[2001:db8:cafe::17]:4711\";proto=https"
                .parse()
                .unwrap(),
        );
        assert_eq!(
            keys.client_address(ip("10.0.0.1"), &forwarded),
            ip("2001:db8:cafe::17")
        );
        forwarded.insert("forwarded", "for=unknown".parse().unwrap());
        assert_eq!(
            keys.client_address(ip("10.0.0.1"), &forwarded),
            ip("10.0.0.1")
        );
        // Not a proxy of ours: its headers say nothing.
        assert_eq!(
            keys.client_address(ip("11.0.0.1"), &xff("203.0.113.9")),
            ip("11.0.0.1")
        );
        assert!(parse_proxy("10.0.0.0/33").is_err());
        assert!(parse_proxy("proxy.example").is_err());
    }

    #[test]
    fn ipv6_clients_are_their_64() {
        assert_eq!(
            key_of(ip("2001:db8:1:2::1")),
            key_of(ip("2001:db8:1:2:ffff::9"))
        );
        assert_ne!(key_of(ip("2001:db8:1:2::1")), key_of(ip("2001:db8:1:3::1")));
        assert_eq!(key_of(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_ne!(key_of(ip("192.0.2.7")), key_of(ip("192.0.2.8")));
    }

    fn request(peer: &str, forwarded_for: &str) -> Request<()> {
        let mut req = Request::new(());
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(ip(peer), 40_000)));
        req.headers_mut()
            .insert("x-forwarded-for", forwarded_for.parse().unwrap());
        req
    }

    #[test]
    fn the_budget_runs_out_per_client() {
        let limits = RateLimits::new(3, 1, &[]);
        let limiter = limits.general.budget.limiter();
        let extractor = ClientKeyExtractor::new(&[]);
        let a = extractor.extract(&request("10.0.0.1", "1.1.1.1")).unwrap();
        let b = extractor.extract(&request("10.0.0.2", "1.1.1.1")).unwrap();
        for remaining in [2, 1, 0] {
            let snapshot = limiter.check_key(&a).unwrap();
            assert_eq!(snapshot.remaining_burst_capacity(), remaining);
        }
        assert!(limiter.check_key(&a).is_err());
        assert!(limiter.check_key(&b).is_ok(), "budgets are per client");
    }

    /// 100,000 IPv6 clients, each its own /64, through a trusted proxy: the limiter tracks
    /// them while their budgets are spent, and forgets them once they are full again.
    #[test]
    fn a_hundred_thousand_clients_are_forgotten_once_their_budgets_return() {
        // 6,000 a minute: a budget spent by one request is back in 10 ms.
        let limits = RateLimits::new(6_000, 6_000, &[parse_proxy("127.0.0.0/8").unwrap()]);
        let extractor = ClientKeyExtractor::new(&[parse_proxy("127.0.0.0/8").unwrap()]);
        let limiter = limits.general.budget.limiter();
        for i in 0..100_000u32 {
            let client = Ipv6Addr::new(0x2001, 0xdb8, (i >> 16) as u16, i as u16, 0, 0, 0, 1);
            let key = extractor
                .extract(&request("::ffff:127.0.0.1", &client.to_string()))
                .unwrap();
            assert!(limiter.check_key(&key).is_ok());
        }
        assert_eq!(limiter.len(), 100_000);
        // The same /64 from other addresses is the same client: no new keys.
        for i in 0..3u16 {
            let client = Ipv6Addr::new(0x2001, 0xdb8, 0, 7, i, 1, 2, 3);
            let key = extractor
                .extract(&request("127.0.0.1", &client.to_string()))
                .unwrap();
            let _ = limiter.check_key(&key);
        }
        assert_eq!(limiter.len(), 100_000);
        // The busiest key spent 4 requests: back in 40 ms.
        std::thread::sleep(Duration::from_millis(100));
        limits.sweep();
        assert_eq!(limits.tracked(), 0, "every budget is full again");
    }

    #[test]
    fn headers_say_when_the_budget_is_back() {
        let mut headers = HeaderMap::new();
        write_headers(&mut headers, 120, 119);
        assert_eq!(headers["ratelimit-reset"], "1");
        write_headers(&mut headers, 120, 0);
        assert_eq!(headers["ratelimit-reset"], "60");
        write_headers(&mut headers, 5, 4);
        assert_eq!(headers["ratelimit-reset"], "12");
    }
}
