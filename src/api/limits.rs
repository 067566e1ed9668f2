//! Per-client rate limits, and who the client is.
//!
//! A fixed one-minute window per client address, so the `ratelimit-*` headers are exact:
//! `limit` requests a window, `remaining` in this one, `reset` seconds until the next. The
//! general endpoints (and `/api/relayer/jobs/*`) and the relayer's have separate budgets. Behind a reverse proxy every
//! request comes from the proxy, so the client is read from `X-Forwarded-For`, but only when
//! the connection comes from a proxy the operator named: otherwise anyone could claim any
//! address and never be limited.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::App;
use super::errors::ApiError;

const WINDOW: Duration = Duration::from_secs(60);
/// Past this many tracked clients, windows that have ended are swept out.
const SWEEP_AT: usize = 10_000;

/// One budget: `limit` requests per client per minute.
pub struct RateLimiter {
    limit: u32,
    clients: Mutex<HashMap<IpAddr, Window>>,
}

#[derive(Clone, Copy)]
struct Window {
    started: Instant,
    count: u32,
}

/// The outcome of one request against a budget.
#[derive(Debug, Clone, Copy)]
pub struct Decision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until the window resets.
    pub reset: u64,
}

impl RateLimiter {
    pub fn new(limit: u32) -> Self {
        RateLimiter {
            limit,
            clients: Mutex::new(HashMap::new()),
        }
    }

    pub fn check(&self, client: IpAddr) -> Decision {
        let now = Instant::now();
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if clients.len() >= SWEEP_AT {
            clients.retain(|_, w| now.duration_since(w.started) < WINDOW);
        }
        let window = clients.entry(client).or_insert(Window {
            started: now,
            count: 0,
        });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window {
                started: now,
                count: 0,
            };
        }
        let allowed = window.count < self.limit;
        if allowed {
            window.count += 1;
        }
        let left = WINDOW.saturating_sub(now.duration_since(window.started));
        Decision {
            allowed,
            limit: self.limit,
            remaining: self.limit - window.count,
            reset: left.as_secs_f64().ceil().max(1.0) as u64,
        }
    }
}

impl Decision {
    fn write_headers(&self, headers: &mut HeaderMap) {
        headers.insert("ratelimit-limit", HeaderValue::from(self.limit));
        headers.insert("ratelimit-remaining", HeaderValue::from(self.remaining));
        headers.insert("ratelimit-reset", HeaderValue::from(self.reset));
        if !self.allowed {
            headers.insert("retry-after", HeaderValue::from(self.reset));
        }
    }
}

/// The client's address: the peer, or, when the peer is a trusted proxy, the nearest
/// address in `X-Forwarded-For` that is not one of our proxies.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut client = peer;
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => client = ip,
            Ok(ip) => return ip,
            // A garbled entry: everything left of it is the client's word, not ours.
            Err(_) => return client,
        }
    }
    client
}

/// Counts the request against its budget; past the budget it answers 429 itself.
pub async fn rate_limit(
    State(app): State<std::sync::Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    let client = client_address(peer.ip(), req.headers(), &app.config.trusted_proxies);
    // Following a job is a cheap read a client repeats: it counts against the general
    // budget, so polling cannot use up the relayer's.
    let path = req.uri().path();
    let limiter = if path.starts_with("/api/relayer/") && !path.starts_with("/api/relayer/jobs/") {
        &app.relayer_limit
    } else {
        &app.general_limit
    };
    let decision = limiter.check(client);
    let mut response = if decision.allowed {
        next.run(req).await
    } else {
        tracing::info!(%client, path = req.uri().path(), "rate limited");
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "rate limited: {} requests a minute; retry in {} s",
                decision.limit, decision.reset
            ),
        )
        .into_response()
    };
    decision.write_headers(response.headers_mut());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_runs_out_and_says_when_it_returns() {
        let limiter = RateLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for remaining in [2, 1, 0] {
            let d = limiter.check(a);
            assert!(d.allowed);
            assert_eq!(d.remaining, remaining);
        }
        let d = limiter.check(a);
        assert!(!d.allowed);
        assert!((1..=60).contains(&d.reset));
        assert!(limiter.check(b).allowed, "budgets are per client");
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let proxy: IpAddr = "127.0.0.1".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 203.0.113.7".parse().unwrap());
        let stranger: IpAddr = "198.51.100.1".parse().unwrap();
        assert_eq!(client_address(stranger, &headers, &[proxy]), stranger);
        assert_eq!(
            client_address(proxy, &headers, &[proxy]),
            "203.0.113.7".parse::<IpAddr>().unwrap(),
            "the proxy's own entry, not the spoofable leftmost one"
        );
        headers.insert("x-forwarded-for", "nonsense".parse().unwrap());
        assert_eq!(client_address(proxy, &headers, &[proxy]), proxy);
    }
}
