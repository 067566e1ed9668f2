//! The long soak: a release `tronpool serve` in front of a `tronpool devnet` process, under the soak test's mixed load
//! (`test_support::load`) for 30 minutes at the highest rate this machine gives, nobody
//! scraping `/metrics`, with the server's RSS, threads and open descriptors sampled every 10 s.
//!
//! Writes `<target>/soak/soak.csv` (one row a sample) and `<target>/soak/soak.png` (the three
//! curves, drawn with plotters), and prints one JSON line:
//! `{"bench":"soak/serve","seconds":…,"requests":…,"rps":…,"rss_mib":{"after_warmup":…,
//! "end":…,"max":…,"growth_after_warmup":…},"threads_max":…,"open_fds_max":…}`.
//! The warm-up is the first third of the run (as in `tests/it/soak.rs`).
//!
//! `TRONPOOL_SOAK_SECONDS` (default 1800) and `TRONPOOL_SOAK_SAMPLE_SECONDS` (default 10)
//! change the length and the sampling. Like a criterion bench it takes a filter: run alone
//! with `scripts/bench soak`, skipped when another filter is given.
#![allow(clippy::unwrap_used)] // a bench fails by panicking: unwrapping is how it says so

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use plotters::prelude::*;
use test_support::load::{self, Counts, LoadShape, ProcessSample, ServeOnDevnet};

/// One sample of the server.
struct Row {
    at: Duration,
    sample: ProcessSample,
    requests: u64,
}

fn seconds_from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}

fn main() {
    // cargo bench passes `--bench` and criterion-style filters; run when none excludes us.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "soak/serve".contains(f.as_str())) {
        return;
    }
    let length = Duration::from_secs(seconds_from_env("TRONPOOL_SOAK_SECONDS", 1800));
    let every = Duration::from_secs(seconds_from_env("TRONPOOL_SOAK_SAMPLE_SECONDS", 10));

    let out = test_support::target_dir().join("soak");
    std::fs::create_dir_all(&out).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let processes = ServeOnDevnet::start(env!("CARGO_BIN_EXE_tronpool"), dir.path());
    let server = processes.addr;
    let pid = processes.serve.id();
    eprintln!(
        "soak: serve (pid {pid}) at {server} for {} s, a sample every {} s",
        length.as_secs(),
        every.as_secs()
    );

    let counts = Arc::new(Counts::default());
    let done = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let sampler = {
        let counts = Arc::clone(&counts);
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut rows = Vec::new();
            let mut next = started;
            while !done.load(Ordering::Relaxed) {
                if Instant::now() >= next {
                    if let Some(sample) = ProcessSample::of(pid) {
                        rows.push(Row {
                            at: started.elapsed(),
                            sample,
                            requests: counts.total(),
                        });
                    }
                    next += every;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            rows
        })
    };

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // As fast as the machine goes: the heavy client floods, the many never pause.
    let shape = LoadShape {
        heavy_connections: 16,
        clients: 64,
        client_pause: Duration::ZERO,
    };
    runtime.block_on(load::run(
        server,
        &shape,
        started + length,
        Arc::clone(&counts),
    ));
    let elapsed = started.elapsed();
    // One last sample at the end of the load.
    std::thread::sleep(Duration::from_millis(300));
    done.store(true, Ordering::Relaxed);
    let mut rows = sampler.join().unwrap();
    if let Some(sample) = ProcessSample::of(pid) {
        rows.push(Row {
            at: elapsed,
            sample,
            requests: counts.total(),
        });
    }
    drop(processes);
    let _ = std::fs::copy(dir.path().join("serve.log"), out.join("serve.log"));
    eprintln!("soak: {}", counts.summary());

    write_csv(&out.join("soak.csv"), &rows);
    match plot(&out.join("soak.png"), &rows) {
        Ok(()) => eprintln!("soak: plotted {}", out.join("soak.png").display()),
        Err(e) => eprintln!("soak: no plot: {e}"),
    }

    let mib = |kib: u64| (kib as f64 / 1024.0 * 10.0).round() / 10.0;
    let warm = rows.iter().find(|r| r.at >= length / 3).unwrap_or(&rows[0]);
    let after: Vec<&Row> = rows.iter().filter(|r| r.at >= warm.at).collect();
    let max = after.iter().map(|r| r.sample.rss_kib).max().unwrap();
    let end = rows.last().unwrap().sample.rss_kib;
    let line = serde_json::json!({
        "bench": "soak/serve",
        "seconds": elapsed.as_secs(),
        "requests": counts.total(),
        "rps": (counts.total() as f64 / elapsed.as_secs_f64()).round(),
        "rss_mib": {
            "after_warmup": mib(warm.sample.rss_kib),
            "end": mib(end),
            "max": mib(max),
            "growth_after_warmup": mib(max.saturating_sub(warm.sample.rss_kib)),
        },
        "threads_max": rows.iter().map(|r| r.sample.threads).max(),
        "open_fds_max": rows.iter().map(|r| r.sample.open_fds).max(),
    });
    println!("{line}");
}

fn write_csv(path: &Path, rows: &[Row]) {
    let mut text = String::from("seconds,rss_kib,threads,open_fds,requests\n");
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{}\n",
            r.at.as_secs(),
            r.sample.rss_kib,
            r.sample.threads,
            r.sample.open_fds,
            r.requests
        ));
    }
    std::fs::write(path, text).unwrap();
}

/// Plots need a font for their labels; plotters draws with one we hand it (ab_glyph), and
/// Debian's DejaVu is what this machine has. Without it the numbers still stand in the CSV.
fn register_font() -> Result<(), String> {
    const FONTS: [&str; 2] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ];
    let bytes = FONTS
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .ok_or("no DejaVuSans.ttf to label the plot with (Debian's fonts-dejavu-core)")?;
    plotters::style::register_font("sans-serif", FontStyle::Normal, Box::leak(bytes.into()))
        .map_err(|_| "DejaVuSans.ttf is not a usable font".to_owned())
}

fn plot(path: &Path, rows: &[Row]) -> Result<(), Box<dyn std::error::Error>> {
    register_font()?;
    let minutes = |r: &Row| r.at.as_secs_f64() / 60.0;
    let end = rows.last().map_or(1.0, minutes).max(0.1);
    let rss_max = rows
        .iter()
        .map(|r| r.sample.rss_kib as f64 / 1024.0)
        .fold(0.0, f64::max);
    let count_max = rows
        .iter()
        .map(|r| r.sample.threads.max(r.sample.open_fds) as f64)
        .fold(0.0, f64::max);

    let root = BitMapBackend::new(path, (1000, 700)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(420);
    let mut rss = ChartBuilder::on(&top)
        .caption(
            "tronpool serve under the soak mix: resident memory",
            ("sans-serif", 22),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..end, 0.0..(rss_max * 1.2).max(1.0))?;
    rss.configure_mesh()
        .x_desc("minutes")
        .y_desc("RSS, MiB")
        .draw()?;
    rss.draw_series(LineSeries::new(
        rows.iter()
            .map(|r| (minutes(r), r.sample.rss_kib as f64 / 1024.0)),
        &RED,
    ))?;

    let mut counts = ChartBuilder::on(&bottom)
        .caption("threads and open file descriptors", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..end, 0.0..(count_max * 1.2).max(1.0))?;
    counts
        .configure_mesh()
        .x_desc("minutes")
        .y_desc("count")
        .draw()?;
    counts
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (minutes(r), r.sample.threads as f64)),
            &BLUE,
        ))?
        .label("threads")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    counts
        .draw_series(LineSeries::new(
            rows.iter().map(|r| (minutes(r), r.sample.open_fds as f64)),
            &GREEN,
        ))?
        .label("open descriptors")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
    counts
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    root.present()?;
    Ok(())
}
