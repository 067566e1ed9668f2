// The prover's worker: runs tronpool's WebAssembly module (crates/web-prover: the note format,
// the tree and the Groth16 prover of the zk crate) off the page's thread, so proving never
// freezes the page. Messages in: {id, kind: "call", request} or {id, kind: "loadKey",
// expectedVerifyingKey}; out: {id, progress} while working, then {id, ok, value | error}.
"use strict";

let exports = null;

async function module() {
  if (exports) return exports;
  const response = await fetch("/prover.wasm");
  if (!response.ok) throw new Error(await failure(response, "the prover"));
  const { instance } = await WebAssembly.instantiateStreaming(response, {});
  exports = instance.exports;
  return exports;
}

async function failure(response, what) {
  try {
    const body = await response.json();
    if (body && body.error) return body.error;
  } catch (_) { /* not the envelope */ }
  return `${what} could not be loaded (HTTP ${response.status})`;
}

// Writes `bytes` into the module's input buffer, runs `operation`, reads its JSON answer.
function send(x, bytes, operation) {
  const at = x.input(bytes.length);
  new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
  let status;
  try {
    status = x[operation](bytes.length);
  } catch (trap) {
    // A panic aborts the call; the module left its message in the output. A module that
    // trapped is not trusted again: the next request loads a fresh one.
    const message = readOutput(x).error || String(trap);
    exports = null;
    throw new Error(message);
  }
  const answer = readOutput(x);
  if (status !== 0) throw new Error(answer.error);
  return answer;
}

function readOutput(x) {
  const text = new TextDecoder().decode(new Uint8Array(x.memory.buffer, x.output(), x.output_len()));
  try { return JSON.parse(text); } catch (_) { return {}; }
}

let loadedKey = null;

async function loadKey(id, expected) {
  if (loadedKey === expected && exports) return { verifyingKeySha256: expected };
  postMessage({ id, progress: "downloading the proving key" });
  const response = await fetch("/web/withdraw.key");
  if (!response.ok) throw new Error(await failure(response, "the proving key"));
  const bytes = new Uint8Array(await response.arrayBuffer());
  postMessage({ id, progress: "loading the proving key" });
  const answer = send(await module(), bytes, "load_key");
  // The key must be the one the pool's verifier holds: a proof made with any other would be
  // refused, and a key the page did not check is not used.
  if (answer.verifyingKeySha256 !== expected) {
    loadedKey = null;
    exports = null;
    throw new Error(`the server's proving key belongs to verifying key ${answer.verifyingKeySha256}, not the pool's ${expected}: refusing to prove with it`);
  }
  loadedKey = expected;
  return answer;
}

onmessage = async ({ data }) => {
  const { id, kind } = data;
  try {
    let value;
    if (kind === "loadKey") {
      value = await loadKey(id, data.expectedVerifyingKey);
    } else {
      if (data.request.op === "prove") postMessage({ id, progress: "proving" });
      value = send(await module(), new TextEncoder().encode(JSON.stringify(data.request)), "call");
    }
    postMessage({ id, ok: true, value });
  } catch (e) {
    postMessage({ id, ok: false, error: e.message || String(e) });
  }
};
