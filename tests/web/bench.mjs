// The web page's figures for BENCHMARKS.md, in headless Chromium against a running `serve`
// (`benches/web.rs` starts it): the page's size, its first load, and a withdrawal proof made
// by the page's prover worker.
//
// Input (stdin, JSON): {url, chromium, loads, proofs}. Output: one JSON line per figure.

import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const input = JSON.parse(readFileSync(0, "utf8"));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const round = (x) => Math.round(x * 10) / 10;
const emit = (figure) => process.stdout.write(`${JSON.stringify(figure)}\n`);

// The page's files as the browser downloads them (the proving key apart: it is the
// deployment's, fetched once per withdrawal).
const files = ["/", "/app.js", "/style.css", "/prover.js", "/prover.wasm"];
const sizes = {};
for (const path of files) {
  const bytes = Buffer.from(await (await fetch(input.url + path)).arrayBuffer());
  sizes[path] = { bytes: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
}
const sum = (key, paths) => paths.reduce((total, p) => total + sizes[p][key], 0);
const code = ["/", "/app.js", "/style.css", "/prover.js"];
const key = Buffer.from(await (await fetch(`${input.url}/web/withdraw.key`)).arrayBuffer()).length;
emit({
  bench: "web/page_bytes",
  html_js_css: sum("bytes", code),
  wasm: sizes["/prover.wasm"].bytes,
  total: sum("bytes", files),
  total_gzip: sum("gzip", files),
  wasm_gzip: sizes["/prover.wasm"].gzip,
  proving_key: key,
});

const browser = await chromium.launch({
  executablePath: input.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  // First load: a fresh profile each time (nothing cached), until the pools are listed.
  const loads = [];
  for (let i = 0; i < input.loads; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = Date.now();
    await page.goto(input.url);
    await page.waitForSelector("#pools tbody tr");
    loads.push(Date.now() - started);
    await context.close();
  }
  emit({ bench: "web/first_load", runs: loads.length, median_ms: median(loads), min_ms: Math.min(...loads), max_ms: Math.max(...loads) });

  // Proofs by the page's own worker (prover.js and the WebAssembly module), as a withdrawal
  // makes them: key loaded (and checked) once, then one proof after another.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(input.url);
  await page.waitForSelector("#pools tbody tr");
  const result = await page.evaluate(async (proofs) => {
    const deployment = (await (await fetch("/web/deployment.json")).json()).data;
    const worker = new Worker("/prover.js");
    let next = 1;
    const ask = (message) => new Promise((resolve, reject) => {
      const id = next++;
      const listener = ({ data }) => {
        if (data.id !== id || data.progress) return;
        worker.removeEventListener("message", listener);
        if (data.ok) resolve(data.value); else reject(new Error(data.error));
      };
      worker.addEventListener("message", listener);
      worker.postMessage({ id, ...message });
    });
    const hex = (n) => Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => b.toString(16).padStart(2, "0")).join("");
    let started = performance.now();
    await ask({ kind: "loadKey", expectedVerifyingKey: deployment.verifyingKeySha256 });
    const keyMs = performance.now() - started;
    const times = [];
    for (let i = 0; i < proofs; i++) {
      const note = await ask({ kind: "call", request: { op: "newNote", denomination: 100, network: deployment.network, randomness: hex(62) } });
      const leaves = [note.commitment];
      const { root } = await ask({ kind: "call", request: { op: "root", leaves } });
      started = performance.now();
      await ask({ kind: "call", request: {
        op: "prove", note: note.note, leaves, root, recipient: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
        fee: "0", refund: "0", seed: hex(32),
      } });
      times.push(performance.now() - started);
    }
    return { keyMs, times };
  }, input.proofs);
  emit({
    bench: "web/prove",
    runs: result.times.length,
    median_ms: round(median(result.times)),
    min_ms: round(Math.min(...result.times)),
    key_load_ms: round(result.keyMs),
  });
  await context.close();
} finally {
  await browser.close();
}
