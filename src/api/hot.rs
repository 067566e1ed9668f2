//! Hot answers: the pool listings (`GET /api/pools`, `GET /api/pools/{denom}`) answered again,
//! for a short while, with the bytes the whole stack last gave for them.
//!
//! A listing is the same for every client until a block or a relayer job changes it, and
//! a popular server is asked for it far more often than that: a wallet polls it, a page shows
//! it. Through the whole stack each request pays for routing, a dozen layers, three cache
//! reads and a fee computation, several times what the framework itself costs (BENCHMARKS.md,
//! "Listings answered again before routing"). So before the router, a request for a listing
//! that the stack answered 200 less than [`LISTING_REPEAT`] ago (and no longer than the server
//! keeps chain reads) gets that answer again, with what is its own:
//!
//! - it counts against the client's general budget, the same limiter the stack uses, and
//!   carries its `ratelimit-*` headers; a client out of budget goes to the stack, which
//!   refuses it as always;
//! - its request id (the client's `x-request-id`, or a new one) in the answer and the log;
//! - the access log line (the request id a field of it, not a span) and the route's metrics.
//!
//! Everything else in the answer (the body, content type, CORS headers) is the stack's, kept
//! from the answer it repeats, so no rule is written twice. Only requests without an `Origin`
//! header are repeated, so the CORS headers kept are the ones every such request gets; a
//! browser's cross-origin request takes the whole stack. The kept answer is dropped when a
//! cache behind it is told its value changed ([`cache::invalidations`]): a transaction this
//! server sent, or a job its relayer took. The relayer holds every quote it shows for
//! [`LISTING_REPEAT`] longer than it promises, so a repeated quote keeps its whole hold.
//!
//! A repeated answer waits for nothing and holds nothing, so it is not counted against the
//! requests in flight, and has no deadline.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode};
use tower_http::request_id::{MakeRequestId, MakeRequestUuid};

use super::app::App;
use super::layers::{self, MAX_QUERY_LEN};
use super::limits::{ClientKeyExtractor, Limit, RateLimits};
use super::metrics::RouteMetrics;
use crate::service::cache;
use crate::service::relayer::LISTING_REPEAT;

/// The largest listing kept (every pool's, with room to spare).
const MAX_BODY: usize = 64 * 1024;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Headers each answer has of its own, never repeated from another.
const OWN_HEADERS: [&str; 6] = [
    "x-request-id",
    "ratelimit-limit",
    "ratelimit-remaining",
    "ratelimit-reset",
    "retry-after",
    "content-length",
];

/// The listings' kept answers and what a repeat needs.
pub(super) struct Hot {
    paths: Vec<HotPath>,
    repeat_for: Duration,
    budget: Limit,
    extractor: ClientKeyExtractor,
}

/// One listing's path and its kept answer.
struct HotPath {
    /// The path as a client sends it (`/api/pools/100`).
    path: String,
    metrics: RouteMetrics,
    kept: Mutex<Option<Kept>>,
}

/// An answer the stack gave.
#[derive(Clone)]
struct Kept {
    at: Instant,
    invalidations: u64,
    headers: HeaderMap,
    body: Bytes,
}

/// A request the stack should answer, and, when its answer may be kept: which listing, and
/// the time and count of invalidations before the stack read anything for it (an answer is
/// as old as what it was made from).
pub(super) struct Miss(Option<(usize, Instant, u64)>);

impl Hot {
    /// The listings of `app`'s pools; none when the server keeps no chain read (a zero
    /// `sync_ttl`, as in some tests and benchmarks: every answer must then be read afresh).
    pub(super) fn new(app: &App) -> Hot {
        let listings = std::iter::once(("/api/pools".to_owned(), "/api/pools")).chain(
            app.chain
                .denominations()
                .into_iter()
                .map(|d| (format!("/api/pools/{d}"), "/api/pools/{denom}")),
        );
        Hot::of(
            listings,
            LISTING_REPEAT.min(app.chain.sync_ttl()),
            &app.limits,
        )
    }

    /// `paths` (each with the route it is counted under), repeated for `repeat_for` (zero:
    /// never), counted against `limits`' general budget.
    fn of(
        paths: impl IntoIterator<Item = (String, &'static str)>,
        repeat_for: Duration,
        limits: &RateLimits,
    ) -> Hot {
        let paths = if repeat_for.is_zero() {
            Vec::new()
        } else {
            paths
                .into_iter()
                .map(|(path, route)| HotPath::new(path, route))
                .collect()
        };
        Hot {
            paths,
            repeat_for,
            budget: limits.general.clone(),
            extractor: limits.extractor.clone(),
        }
    }

    /// The kept answer to `req`, with its own headers, or what the stack must do.
    pub(super) fn answer<B>(&self, req: &Request<B>) -> Result<Response<Body>, Miss> {
        let Some(index) = self.listing(req) else {
            return Err(Miss(None));
        };
        let started = Instant::now();
        let hot = &self.paths[index];
        let kept = {
            let kept = hot.kept.lock().unwrap_or_else(|e| e.into_inner());
            match kept.as_ref() {
                Some(kept)
                    if started.saturating_duration_since(kept.at) < self.repeat_for
                        && kept.invalidations == cache::invalidations() =>
                {
                    kept.clone()
                }
                _ => return Err(Miss(Some((index, started, cache::invalidations())))),
            }
        };
        // Out of budget, or no client address: the stack answers (429, or 500), as always.
        let remaining = self.budget.take(&self.extractor, req).ok_or(Miss(None))?;
        let mut response = Response::new(Body::from(kept.body));
        *response.headers_mut() = kept.headers;
        let headers = response.headers_mut();
        super::limits::write_headers(headers, self.budget.per_minute, remaining);
        let id = request_id(req);
        headers.insert(REQUEST_ID, id.clone());
        if layers::logging() {
            layers::log_answer(Some(&id), req.method(), &hot.path, StatusCode::OK, started);
        }
        hot.metrics.answered(started);
        Ok(response)
    }

    /// Keeps the stack's answer to a listing, when it is one that can be repeated.
    pub(super) async fn keep(&self, miss: Miss, response: Response<Body>) -> Response<Body> {
        let Some((index, at, invalidations)) = miss.0 else {
            return response;
        };
        if response.status() != StatusCode::OK {
            return response;
        }
        // Only a body already whole in memory, and no larger than a listing, is kept (so
        // collecting it below waits for nothing and cannot fail).
        use axum::body::HttpBody as _;
        if response
            .body()
            .size_hint()
            .exact()
            .is_none_or(|len| len > MAX_BODY as u64)
        {
            return response;
        }
        let (parts, body) = response.into_parts();
        let Ok(body) = axum::body::to_bytes(body, MAX_BODY).await else {
            return Response::from_parts(parts, Body::empty());
        };
        let mut headers = parts.headers.clone();
        for name in OWN_HEADERS {
            headers.remove(name);
        }
        *self.paths[index]
            .kept
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Kept {
            at,
            invalidations,
            headers,
            body: body.clone(),
        });
        Response::from_parts(parts, Body::from(body))
    }

    /// Which listing `req` asks for, if it may be repeated: a GET of its exact path, without
    /// an `Origin`, with no query or a short one (which the listings ignore).
    fn listing<B>(&self, req: &Request<B>) -> Option<usize> {
        if self.paths.is_empty()
            || req.method() != Method::GET
            || req.headers().contains_key(axum::http::header::ORIGIN)
            || req.uri().query().is_some_and(|q| q.len() > MAX_QUERY_LEN)
        {
            return None;
        }
        let path = req.uri().path();
        self.paths.iter().position(|hot| hot.path == path)
    }
}

impl HotPath {
    /// `path`, counted in the metrics under its route's pattern, `route`.
    fn new(path: String, route: &'static str) -> Self {
        HotPath {
            path,
            metrics: RouteMetrics::new(route),
            kept: Mutex::new(None),
        }
    }
}

/// The client's request id, or a new one (as the stack's request-id layers do).
fn request_id<B>(req: &Request<B>) -> HeaderValue {
    if let Some(id) = req.headers().get(REQUEST_ID) {
        return id.clone();
    }
    MakeRequestUuid
        .make_request_id(req)
        .map(|id| id.into_header_value())
        .unwrap_or_else(|| HeaderValue::from_static("-"))
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use axum::extract::ConnectInfo;

    use super::*;

    fn hot(repeat_for: Duration) -> Hot {
        let limits = RateLimits::new(1_000, 5, &[]);
        Hot::of(
            [("/api/pools/100".to_owned(), "/api/pools/{denom}")],
            repeat_for,
            &limits,
        )
    }

    fn request(method: Method, uri: &str, headers: &[(&str, &str)]) -> Request<Body> {
        let mut builder = Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let mut req = builder.body(Body::empty()).unwrap();
        let peer: SocketAddr = "192.0.2.7:5000".parse().unwrap();
        req.extensions_mut().insert(ConnectInfo(peer));
        req
    }

    fn get() -> Request<Body> {
        request(Method::GET, "/api/pools/100", &[])
    }

    /// What the stack answered: the body, its CORS header, and headers of its own request.
    fn stack_answer(status: StatusCode) -> Response<Body> {
        let mut response = Response::new(Body::from("{\"ok\":true}"));
        *response.status_mut() = status;
        let headers = response.headers_mut();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
        headers.insert("x-request-id", HeaderValue::from_static("the-first"));
        headers.insert("ratelimit-remaining", HeaderValue::from_static("42"));
        response
    }

    /// Keeps the stack's answer to the listing (a miss first, as on a fresh server).
    async fn kept(hot: &Hot, status: StatusCode) {
        let miss = hot.answer(&get()).expect_err("nothing kept yet");
        let passed = hot.keep(miss, stack_answer(status)).await;
        assert_eq!(passed.status(), status);
        let body = axum::body::to_bytes(passed.into_body(), MAX_BODY)
            .await
            .unwrap();
        assert_eq!(
            &body[..],
            b"{\"ok\":true}",
            "the stack's answer goes out whole"
        );
    }

    /// The kept answer, asked for at once (another test in this process may drop it by
    /// invalidating a cache of its own in between: a miss is then kept again).
    async fn repeated(hot: &Hot, req: impl Fn() -> Request<Body>) -> Response<Body> {
        for _ in 0..5 {
            match hot.answer(&req()) {
                Ok(response) => return response,
                Err(miss) => {
                    hot.keep(miss, stack_answer(StatusCode::OK)).await;
                }
            }
        }
        panic!("never repeated")
    }

    #[tokio::test]
    async fn a_listing_is_repeated_with_the_stacks_headers_and_its_own() {
        let hot = hot(Duration::from_secs(60));
        kept(&hot, StatusCode::OK).await;
        let response = repeated(&hot, get).await;
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers["content-type"], "application/json");
        assert_eq!(headers["access-control-allow-origin"], "*");
        assert_ne!(headers["x-request-id"], "the-first", "an id of its own");
        assert_eq!(headers["ratelimit-limit"], "1000");
        assert_eq!(
            headers["ratelimit-remaining"], "999",
            "the first of its own budget"
        );
        let body = axum::body::to_bytes(response.into_body(), MAX_BODY)
            .await
            .unwrap();
        assert_eq!(&body[..], b"{\"ok\":true}");

        // The client's own id is kept.
        let response = repeated(&hot, || {
            request(Method::GET, "/api/pools/100", &[("x-request-id", "mine")])
        })
        .await;
        assert_eq!(response.headers()["x-request-id"], "mine");
        // A short query (a cache buster) is ignored, as the stack ignores it.
        repeated(&hot, || request(Method::GET, "/api/pools/100?t=1", &[])).await;
    }

    #[tokio::test]
    async fn what_is_not_a_plain_read_of_a_kept_listing_takes_the_stack() {
        let hot = hot(Duration::from_secs(60));
        kept(&hot, StatusCode::OK).await;
        let long_query = format!("/api/pools/100?{}", "q".repeat(MAX_QUERY_LEN + 1));
        for req in [
            request(Method::POST, "/api/pools/100", &[]),
            request(
                Method::GET,
                "/api/pools/100",
                &[("origin", "https://a.example")],
            ),
            request(Method::GET, "/api/pools/500", &[]),
            request(Method::GET, "/api/pools/100/root", &[]),
            request(Method::GET, &long_query, &[]),
        ] {
            let what = format!("{} {}", req.method(), req.uri());
            assert!(hot.answer(&req).is_err(), "{what} was repeated");
        }
    }

    #[tokio::test]
    async fn an_answer_is_dropped_when_old_or_a_cache_forgets_and_errors_are_not_kept() {
        let hot = hot(Duration::from_millis(50));
        kept(&hot, StatusCode::OK).await;
        repeated(&hot, get).await;
        std::thread::sleep(Duration::from_millis(60));
        assert!(hot.answer(&get()).is_err(), "repeated past its time");

        let hot = self::hot(Duration::from_secs(60));
        kept(&hot, StatusCode::OK).await;
        repeated(&hot, get).await;
        crate::service::cache::Cached::<u8>::new("test", Duration::from_secs(1)).invalidate();
        assert!(hot.answer(&get()).is_err(), "repeated after a cache forgot");

        // A cache forgets while the stack makes the answer: it may be made from the old
        // value, so it is not repeated.
        let hot = self::hot(Duration::from_secs(60));
        let miss = hot.answer(&get()).expect_err("nothing kept yet");
        crate::service::cache::Cached::<u8>::new("test", Duration::from_secs(1)).invalidate();
        hot.keep(miss, stack_answer(StatusCode::OK)).await;
        assert!(
            hot.answer(&get()).is_err(),
            "repeated what a forgotten value made"
        );

        let hot = self::hot(Duration::from_secs(60));
        kept(&hot, StatusCode::SERVICE_UNAVAILABLE).await;
        assert!(hot.answer(&get()).is_err(), "an error was kept");

        // A body larger than any listing goes out whole, and is not kept.
        let hot = self::hot(Duration::from_secs(60));
        let miss = hot.answer(&get()).expect_err("nothing kept yet");
        let large = Response::new(Body::from(vec![b'x'; MAX_BODY + 1]));
        let passed = hot.keep(miss, large).await;
        let body = axum::body::to_bytes(passed.into_body(), usize::MAX)
            .await
            .unwrap();
        assert_eq!(body.len(), MAX_BODY + 1);
        assert!(hot.answer(&get()).is_err(), "a large body was kept");
    }

    #[test]
    fn nothing_is_repeated_when_chain_reads_are_not_kept() {
        let hot = hot(Duration::ZERO);
        assert!(hot.paths.is_empty());
        assert!(hot.answer(&get()).is_err());
    }
}
