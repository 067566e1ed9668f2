//! `tronpool serve` as a process: with the devnet network and no node configured it runs its
//! own devnet (and says so first), announces where it listens, serves the API, and stops
//! cleanly on SIGTERM or SIGINT.
#![cfg(unix)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::TestEnv;

fn get(url: &str, path: &str) -> (u16, Value) {
    let (status, _, body) = get_raw(url, path, &[]);
    (status, serde_json::from_str(&body).expect("JSON"))
}

/// Starts `tronpool --json … serve` with `args` in `env`'s home; returns the process and the
/// announcement's envelope (its first line on stdout). Its stderr, the log, is piped.
fn start_serve(env: &TestEnv, args: &[&str]) -> (std::process::Child, Value) {
    crate::support::spawn_serve(env, args, Stdio::piped())
}

/// Sends SIG`signal` to a `serve` started with `--log-format json` and waits for it: how it
/// ended, its log, and the log's lines.
fn stop(
    child: std::process::Child,
    signal: &str,
) -> (std::process::ExitStatus, String, Vec<Value>) {
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    let lines = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("a JSON log line: {l}")))
        .collect();
    (output.status, log, lines)
}

#[test]
fn serves_with_its_own_devnet_and_stops_on_a_signal() {
    let env = TestEnv::new();
    let cores = std::thread::available_parallelism().unwrap().get();
    // The second round with one worker thread, whatever the cores.
    for (signal, workers) in [("TERM", None), ("INT", Some("1"))] {
        let mut args = vec![
            "--log-format",
            "json",
            "serve",
            "--listen",
            "127.0.0.1:0",
            // Proxies by address and by range; an IPv4-mapped entry reads as IPv4.
            "--trusted-proxy",
            "10.0.0.0/8",
            "--trusted-proxy",
            "::ffff:127.0.0.1",
        ];
        args.extend(workers.iter().flat_map(|n| ["--workers", n]));
        let (child, announced) = start_serve(&env, &args);
        assert_eq!(announced["ok"], true, "{announced}");
        let data = &announced["data"];
        assert_eq!(data["network"], "devnet");
        assert_eq!(data["inProcessDevnet"], true);
        assert_eq!(data["pools"].as_array().unwrap().len(), 6);
        let expected = workers.map_or(cores, |n| n.parse().unwrap());
        assert_eq!(data["workers"], expected, "{announced}");
        let url = data["url"].as_str().unwrap();

        let (status, health) = get(url, "/api/health");
        assert_eq!(status, 200, "{health}");
        assert_eq!(health["data"]["node"]["reachable"], true);
        let (status, pool) = get(url, "/api/pools/100");
        assert_eq!(status, 200, "{pool}");
        let (status, live) = get(url, "/livez");
        assert_eq!(status, 200, "{live}");
        let (status, ready) = get(url, "/readyz");
        assert_eq!(status, 200, "{ready}");
        assert_eq!(ready["data"]["ready"], true, "{ready}");

        let (stopped, log, lines) = stop(child, signal);
        assert!(stopped.success(), "SIG{signal} is a clean stop");
        let first = lines[0]["fields"]["message"].as_str().unwrap();
        assert!(
            first.contains("in-process devnet"),
            "first log line: {first}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l["fields"]["path"] == "/api/pools/100" && l["fields"]["status"] == 200),
            "an access log line per request: {log}"
        );
    }
}

/// `--workers` takes 1 or more; anything else is a usage error before anything starts.
#[test]
fn workers_must_be_at_least_one() {
    let env = TestEnv::new();
    for bad in ["0", "many", "-1"] {
        let (code, out) = crate::support::json_run(env.cmd().args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            &format!("--workers={bad}"),
        ]));
        assert_eq!(code, 2, "{bad}: {out}");
        let error = out["error"].as_str().unwrap();
        assert!(error.contains("--workers"), "{error}");
        assert!(!error.contains('\n'), "one line: {error}");
    }
}

/// Every command with an API twin prints exactly the twin's `data`: the same document whether
/// a script asks the CLI or the server.
#[test]
fn commands_with_an_api_twin_print_its_data() {
    let chain = crate::support::TestChain::start();
    let env = TestEnv::new();
    let (mut child, announced) = start_serve(
        &env,
        &["--node", &chain.url(), "serve", "--listen", "127.0.0.1:0"],
    );
    let url = announced["data"]["url"].as_str().unwrap().to_owned();
    let cli = |args: &[&str]| -> Value {
        let (code, out) =
            crate::support::json_run(env.cmd().args(["--node", &chain.url()]).args(args));
        assert_eq!(code, 0, "{args:?}: {out}");
        out["data"].clone()
    };
    let holder = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
    for (args, path) in [
        (vec!["pools"], "/api/pools".to_owned()),
        (vec!["balance", holder], format!("/api/balance/{holder}")),
        (
            vec!["relay", "status", "--relayer", url.as_str()],
            "/api/relayer/status".to_owned(),
        ),
    ] {
        let (status, api) = get(&url, &path);
        assert_eq!(status, 200, "{path}: {api}");
        assert_eq!(cli(&args), api["data"], "{args:?} against GET {path}");
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// GET `path` on a connection of its own with these headers; the status, the answer's headers
/// (names in lower case) and its body.
fn get_raw(
    url: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    let addr = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let extra: String = headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}\r\n"))
        .collect();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n"
    )
    .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    let (head, body) = response.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status = lines.next().expect("a status line")[9..12]
        .parse()
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers, body.to_owned())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A listing asked for again within a moment is answered again before routing (`api::hot`):
/// the same body and CORS headers as the whole stack gave, but its own request id, its own
/// access log line, and one request taken from the client's budget like any other, so the
/// budget runs out after exactly as many listings.
#[test]
fn a_listing_asked_again_at_once_is_the_same_answer_with_its_own_id_budget_and_log_line() {
    let env = TestEnv::new();
    let (child, announced) = start_serve(
        &env,
        &[
            "--log-format",
            "json",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--rate-limit",
            "30",
        ],
    );
    let url = announced["data"]["url"].as_str().unwrap().to_owned();
    let started = std::time::Instant::now();
    let answers: Vec<_> = (0..40)
        .map(|i| {
            get_raw(
                &url,
                "/api/pools/100",
                &[("x-request-id", &format!("hot-test-{i}"))],
            )
        })
        .collect();
    let took = started.elapsed();

    let (first_status, first_headers, first_body) = &answers[0];
    assert_eq!(*first_status, 200, "{first_body}");
    let served: Vec<_> = answers.iter().take_while(|(s, _, _)| *s == 200).collect();
    // 30 a minute: one more comes back every 2 s.
    let refilled = (took.as_secs_f64() / 2.0).ceil() as usize;
    assert!(
        (30..=30 + refilled).contains(&served.len()),
        "{} listings before the budget ran out, in {took:?}",
        served.len()
    );
    for (i, (_, headers, body)) in served.iter().enumerate() {
        assert_eq!(body, first_body, "answer {i}");
        assert_eq!(
            header(headers, "x-request-id"),
            Some(&*format!("hot-test-{i}"))
        );
        // Any origin allowed (the default): the same answer whatever the origin, no `vary`.
        assert_eq!(header(headers, "vary"), None);
        for name in ["content-type", "access-control-allow-origin"] {
            assert_eq!(header(headers, name), header(first_headers, name), "{name}");
        }
        assert_eq!(header(headers, "ratelimit-limit"), Some("30"));
    }
    let remaining: Vec<u32> = served
        .iter()
        .map(|(_, h, _)| header(h, "ratelimit-remaining").unwrap().parse().unwrap())
        .collect();
    // Each answer, repeated or not, took one request; a refill gives one back.
    assert_eq!(remaining[0], 29);
    assert!(
        remaining
            .windows(2)
            .all(|w| w[1] + 1 == w[0] || w[1] == w[0]),
        "{remaining:?}"
    );
    for (status, headers, body) in &answers[served.len()..] {
        assert_eq!(*status, 429, "{body}");
        let envelope: Value = serde_json::from_str(body).unwrap();
        assert_eq!(envelope["ok"], false);
        assert!(header(headers, "retry-after").is_some());
    }

    let (stopped, log, lines) = stop(child, "TERM");
    assert!(stopped.success());
    // A repeated answer's line has the id as a field; the stack's runs in a span with it.
    let id_of = |line: &Value| {
        line["fields"]["request_id"]
            .as_str()
            .or_else(|| line["span"]["request_id"].as_str())
            .or_else(|| {
                line["spans"]
                    .as_array()?
                    .iter()
                    .find_map(|s| s["request_id"].as_str())
            })
            .map(str::to_owned)
    };
    let access: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"]["path"] == "/api/pools/100")
        .collect();
    for i in 0..answers.len() {
        let id = format!("hot-test-{i}");
        assert!(
            access.iter().any(|l| id_of(l).as_deref() == Some(&*id)),
            "no access log line for {id}: {log}"
        );
    }
    assert!(
        access
            .iter()
            .any(|l| l["fields"]["request_id"].as_str().is_some() && l["fields"]["status"] == 200),
        "no listing was answered again (40 in {took:?}): {log}"
    );
}
