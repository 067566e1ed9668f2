//! `tronpool devnet` as a process: it announces itself, serves java-tron's API, and on SIGINT
//! or SIGTERM stops cleanly, saving its state where a restart picks it up.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::support::TestEnv;

/// Starts `tronpool --json devnet --port 0 --state <file>` and reads its announcement.
fn start(env: &TestEnv, state: &std::path::Path) -> (Child, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tronpool"))
        .env("TRONPOOL_HOME", env.home())
        .args([
            "--json",
            "devnet",
            "--port",
            "0",
            "--accounts",
            "2",
            "--state",
        ])
        .arg(state)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tronpool devnet starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("an announcement");
    let announced: Value = serde_json::from_str(&line).expect("the JSON envelope");
    assert_eq!(announced["ok"], true, "{announced}");
    (child, announced["data"].clone())
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// The head block's number, over a bare HTTP/1.1 request.
fn head(url: &str) -> i64 {
    use std::io::{Read, Write};
    let addr = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "POST /wallet/getnowblock HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    let body = response.split_once("\r\n\r\n").expect("headers end").1;
    let block: Value = serde_json::from_str(body).expect("a block");
    block["block_header"]["raw_data"]["number"]
        .as_i64()
        .expect("a number")
}

#[test]
fn stops_on_a_signal_and_resumes_from_its_state_file() {
    let env = TestEnv::new();
    let state = env.path("chain.json");
    let (mut child, data) = start(&env, &state);
    let url = data["url"].as_str().expect("url").to_owned();
    assert_eq!(data["accounts"].as_array().unwrap().len(), 2);
    assert_eq!(data["deployment"]["pools"].as_array().unwrap().len(), 6);
    let before = head(&url);
    assert!(before >= 2);

    signal(&child, "INT");
    let status = child.wait().expect("it exits");
    assert!(status.success(), "Ctrl-C is a clean stop: {status}");
    assert!(state.exists(), "the state was saved");

    let (mut child, again) = start(&env, &state);
    assert_eq!(again["deployment"], data["deployment"]);
    let url = again["url"].as_str().unwrap().to_owned();
    assert!(
        head(&url) > before,
        "the chain goes on from where it stopped"
    );
    signal(&child, "TERM");
    assert!(child.wait().expect("it exits").success());
}
