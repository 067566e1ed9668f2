// tronpool's web page: pools, deposits signed by TronLink, withdrawals proved in this browser.
//
// Everything about a pool comes from the server that served this page (its REST API under
// /api and /web/deployment.json); transactions are built unsigned by the API and signed and
// broadcast by the wallet. Notes are made and read by the prover's worker (prover.js, the zk
// crate compiled to WebAssembly) and never leave the browser: only a proof and its public
// values are sent.
"use strict";

const SUN_PER_TRX = 1_000_000;
const USDT_UNITS = 1_000_000;
// java-tron charges a transaction's bandwidth as its signed size plus this much for its
// result (Constant.MAX_RESULT_SIZE_IN_TX), one byte per point, 1,000 sun a point when the
// account's free and staked bandwidth do not cover it.
const RESULT_BYTES = 64;
const SIGNATURE_BYTES = 67;
const SUN_PER_BANDWIDTH_POINT = 1000;

const $ = (id) => document.getElementById(id);
const state = { deployment: null, pools: [], account: null, wallet: null, note: null };

// ---- the API ----------------------------------------------------------------------------

/// Calls the API; an error envelope becomes an Error carrying the server's message.
async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new Error(`the server cannot be reached (${e.message})`);
  }
  let envelope;
  try {
    envelope = await response.json();
  } catch (_) {
    throw new Error(`the server answered HTTP ${response.status} without its JSON envelope`);
  }
  if (!envelope.ok) {
    const error = new Error(envelope.error || `HTTP ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return envelope.data;
}

// ---- the prover's worker ------------------------------------------------------------------

const prover = (() => {
  const worker = new Worker("/prover.js");
  let next = 1;
  const waiting = new Map();
  worker.onmessage = ({ data }) => {
    const job = waiting.get(data.id);
    if (!job) return;
    if (data.progress) { job.progress?.(data.progress); return; }
    waiting.delete(data.id);
    if (data.ok) job.resolve(data.value); else job.reject(new Error(data.error));
  };
  const ask = (message, progress) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject, progress });
    worker.postMessage({ id, ...message });
  });
  return {
    call: (request, progress) => ask({ kind: "call", request }, progress),
    loadKey: (expectedVerifyingKey, progress) => ask({ kind: "loadKey", expectedVerifyingKey }, progress),
  };
})();

function randomHex(bytes) {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  const hex = Array.from(buffer, (b) => b.toString(16).padStart(2, "0")).join("");
  buffer.fill(0);
  return hex;
}

// ---- what the page shows ----------------------------------------------------------------

function say(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = false;
}
const fail = (e) => say(e.message || String(e), "error");

function usdt(raw) { return (Number(raw) / USDT_UNITS).toLocaleString("en-US", { maximumFractionDigits: 6 }); }
function trx(sun) { return (Number(sun) / SUN_PER_TRX).toLocaleString("en-US", { maximumFractionDigits: 6 }); }
/// TRX as typed (up to six decimals) in sun.
function sunOf(text) {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,6}))?\s*$/.exec(text || "0");
  if (!match) throw new Error(`"${text}" is not an amount of TRX (like 1 or 0.5)`);
  return BigInt(match[1]) * 1_000_000n + BigInt((match[2] || "").padEnd(6, "0"));
}
function duration(seconds) {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}
function item(list, text) {
  const li = document.createElement("li");
  li.textContent = text;
  list.append(li);
  return li;
}

function show(view) {
  for (const name of ["pools", "deposit", "withdraw"]) {
    $(`view-${name}`).hidden = name !== view;
    $(`tab-${name}`).setAttribute("aria-pressed", String(name === view));
  }
}

// ---- the wallet ---------------------------------------------------------------------------

/// Connects TronLink, refusing a wallet whose node is on another chain than this server's.
async function connect() {
  if (!window.tronLink) {
    throw new Error("TronLink is not installed in this browser: install it from tronlink.org, then reload this page");
  }
  const answer = await window.tronLink.request({ method: "tron_requestAccounts" });
  if (answer && answer.code === 4001) throw new Error("TronLink: the connection was refused");
  const tronWeb = window.tronWeb;
  if (!tronWeb || !tronWeb.ready || !tronWeb.defaultAddress || !tronWeb.defaultAddress.base58) {
    throw new Error("TronLink is locked: unlock it and connect again");
  }
  const genesis = await tronWeb.trx.getBlockByNumber(0);
  if (!genesis || genesis.blockID !== state.deployment.genesisBlockId) {
    throw new Error(`TronLink is on another network: switch it to ${state.deployment.network} (the network this server's pools are on) and connect again`);
  }
  state.wallet = tronWeb;
  state.account = tronWeb.defaultAddress.base58;
  await refreshAccount();
}

async function refreshAccount() {
  if (!state.account) return;
  const balance = await api(`/api/balance/${state.account}`);
  state.balance = balance;
  $("account").hidden = false;
  $("connect").textContent = "Connected";
  $("account-address").textContent = state.account;
  $("account-usdt").textContent = usdt(balance.balanceRaw);
  $("account-trx").textContent = trx(balance.trxRaw);
}

function needWallet() {
  if (!state.wallet) throw new Error("connect TronLink first");
  return state.wallet;
}

/// What a transaction will burn in TRX: the energy the API estimated, and its bandwidth
/// unless the account's free bandwidth covers it.
function burnOf(unsigned) {
  const bytes = unsigned.transaction.raw_data_hex.length / 2 + SIGNATURE_BYTES + RESULT_BYTES;
  const free = state.balance?.resources?.bandwidthAvailable ?? 0;
  const bandwidthSun = bytes <= free ? 0 : bytes * SUN_PER_BANDWIDTH_POINT;
  const energySun = unsigned.estimate ? Number(unsigned.estimate.burnedSun) : 0;
  return { energySun, bandwidthSun, totalSun: energySun + bandwidthSun };
}

/// Signs with TronLink, broadcasts, and waits until the transaction is in a block.
async function signAndSend(unsigned, what) {
  const tronWeb = needWallet();
  let signed;
  try {
    signed = await tronWeb.trx.sign(unsigned.transaction);
  } catch (e) {
    throw new Error(`TronLink did not sign the ${what}: ${e.message || e}. Nothing was sent.`);
  }
  const sent = await tronWeb.trx.sendRawTransaction(signed);
  if (!sent || !sent.result) {
    const reason = sent && sent.message ? decodeMessage(sent.message) : JSON.stringify(sent);
    throw new Error(`the node refused the ${what}: ${reason}`);
  }
  const txid = signed.txID;
  for (let i = 0; i < 120; i++) {
    const info = await tronWeb.trx.getTransactionInfo(txid);
    if (info && info.blockNumber) {
      const result = info.receipt && info.receipt.result;
      if (result && result !== "SUCCESS") throw new Error(`the ${what} ${txid} failed on chain: ${result}`);
      return txid;
    }
    await sleep(1000);
  }
  throw new Error(`the ${what} ${txid} is not in a block after two minutes`);
}

function decodeMessage(hex) {
  try {
    return new TextDecoder().decode(Uint8Array.from(hex.match(/../g).map((b) => parseInt(b, 16))));
  } catch (_) {
    return hex;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- pools --------------------------------------------------------------------------------

async function loadPools() {
  const { pools } = await api("/api/pools");
  state.pools = pools;
  const body = $("pools").querySelector("tbody");
  body.replaceChildren();
  const select = $("deposit-pool");
  select.replaceChildren();
  for (const pool of pools) {
    const row = document.createElement("tr");
    const cells = [pool.denomination, usdt(pool.poolBalanceRaw), pool.depositCount, pool.queued ?? 0,
      pool.relayerFeeRaw != null ? usdt(pool.relayerFeeRaw) : "—",
      pool.insertionFeeRaw != null ? usdt(pool.insertionFeeRaw) : "—"];
    cells.forEach((value, i) => {
      const cell = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) cell.scope = "row";
      cell.textContent = String(value);
      row.append(cell);
    });
    body.append(row);
    const option = document.createElement("option");
    option.value = String(pool.denomination);
    option.textContent = `${pool.denomination} USDT`;
    select.append(option);
  }
}

function pool(denomination) {
  const found = state.pools.find((p) => p.denomination === Number(denomination));
  if (!found) throw new Error(`there is no ${denomination} USDT pool on ${state.deployment.network}`);
  return found;
}

// ---- deposit ------------------------------------------------------------------------------

async function makeNote() {
  const denomination = Number($("deposit-pool").value);
  const made = await prover.call({
    op: "newNote", denomination, network: state.deployment.network, randomness: randomHex(62),
  });
  state.note = { ...made, denomination };
  $("deposit-note").value = made.note;
  $("note-step").hidden = false;
  $("note-saved").checked = false;
  $("note-saved").disabled = true;
  $("cost-step").hidden = true;
  $("deposit-result").hidden = true;
  $("deposit-send").disabled = true;
  say("Save the note (download or copy it) before anything is signed.");
}

function downloadNote() {
  const note = state.note;
  const blob = new Blob([`${note.note}\n`], { type: "text/plain" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `tronpool-note-${note.denomination}usdt-${note.commitment.slice(2, 10)}.txt`;
  document.body.append(link);
  link.click();
  link.remove();
  // Kept for a minute: the browser reads the blob for the download on its own time, and a
  // busy one may not have within a second (FileSaver.js waits 40 s).
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  noteSaved();
}

async function copyNote() {
  try {
    await navigator.clipboard.writeText(state.note.note);
  } catch (_) {
    $("deposit-note").select();
    throw new Error("the browser did not let the page copy: the note is selected, copy it with Ctrl+C");
  }
  noteSaved();
}

function noteSaved() {
  $("note-saved").disabled = false;
  say("Tick the box once the note is somewhere safe.");
}

/// The unsigned deposit of `note` from the connected account.
function buildDeposit(note) {
  return api("/api/tx/deposit", { method: "POST", body: { from: state.account, denomination: String(note.denomination), commitment: note.commitment } });
}

/// What a transaction burns, in the words the cost list uses.
function burnText(burn) {
  return `about ${trx(burn.totalSun)} TRX burned (energy ${trx(burn.energySun)}, bandwidth ${trx(burn.bandwidthSun)})`;
}

/// The deposit's costs, worked out before anything is signed; stops when TRX is short.
async function reviewDeposit() {
  needWallet();
  await refreshAccount();
  const note = state.note;
  const target = pool(note.denomination);
  const list = $("deposit-costs");
  list.replaceChildren();
  const allowance = await api(`/api/allowance/${state.account}/${note.denomination}`);
  const steps = [];
  if (!allowance.sufficient) {
    const approve = await api("/api/tx/approve", { method: "POST", body: { from: state.account, denomination: String(note.denomination) } });
    steps.push({ what: "approval", unsigned: approve, burn: burnOf(approve) });
  }
  const needed = BigInt(target.denominationRaw) + BigInt(target.insertionFeeRaw ?? 0);
  if (BigInt(state.balance.balanceRaw) < needed) {
    throw new Error(`the account holds ${usdt(state.balance.balanceRaw)} USDT; the deposit takes ${usdt(needed)} (the pool's ${target.denomination} and the insertion fee)`);
  }
  item(list, `Deposit: ${usdt(needed)} USDT (${target.denomination} into the pool, ${usdt(target.insertionFeeRaw ?? 0)} for its insertion into the tree).`);
  for (const step of steps) {
    item(list, `The ${step.what}: ${burnText(step.burn)}; never sponsored.`);
  }
  let burn = steps.reduce((sum, s) => sum + s.burn.totalSun, 0);
  if (steps.length === 0) {
    // Allowed already: the deposit itself can be built, and its cost shown, now.
    const own = burnOf(await buildDeposit(note));
    item(list, `The deposit: ${burnText(own)}.`);
    burn += own.totalSun;
  } else {
    item(list, "The deposit's own energy and bandwidth: the API can price it only once the approval is in, so it is shown then, before you sign it.");
  }
  if (BigInt(state.balance.trxRaw) < BigInt(burn)) {
    throw new Error(`the account holds ${trx(state.balance.trxRaw)} TRX and this burns about ${trx(burn)}: add TRX first. Nothing was signed.`);
  }
  state.depositSteps = steps;
  $("cost-step").hidden = false;
  $("deposit-send").disabled = false;
}

async function deposit() {
  const note = state.note;
  $("deposit-send").disabled = true;
  // A step that went through is not repeated when the button is pressed again after a failure.
  while (state.depositSteps.length > 0) {
    const step = state.depositSteps[0];
    say(`Sign the ${step.what} in TronLink…`);
    await signAndSend(step.unsigned, step.what);
    state.depositSteps.shift();
  }
  await refreshAccount();
  const built = await buildDeposit(note);
  const burn = burnOf(built);
  if (BigInt(state.balance.trxRaw) < BigInt(burn.totalSun)) {
    throw new Error(`the deposit burns about ${trx(burn.totalSun)} TRX and the account holds ${trx(state.balance.trxRaw)}: add TRX and press the button again. Nothing was signed.`);
  }
  say(`Sign the deposit in TronLink (about ${trx(burn.totalSun)} TRX burned)…`);
  const before = pool(note.denomination).depositCount;
  note.sent = true;
  const txid = await signAndSend(built, "deposit");
  $("deposit-result").hidden = false;
  $("deposit-txid").textContent = txid;
  say("Deposited. Keep the note: it is the only way to withdraw.", "ok");
  await refreshAccount();
  await followInsertion(note, before);
}

/// Waits until the deposit's commitment is a leaf of the pool (a queued pool inserts deposits
/// in batches).
async function followInsertion(note, from) {
  const line = $("deposit-state");
  line.textContent = "Queued: waiting for the next batch to insert it into the tree.";
  const giveUp = Date.now() + 10 * 60 * 1000;
  for (;;) {
    if (Date.now() > giveUp) {
      line.textContent = "Still queued after ten minutes: the next batch will insert it (see the Pools view). The note stays valid; keep it.";
      return;
    }
    const page = await api(`/api/pools/${note.denomination}/leaves?format=packed&from=${from}`);
    const at = unpack(page.commitments).indexOf(note.commitment);
    if (at >= 0) {
      line.textContent = `In the tree as leaf ${page.from + at}: it can be withdrawn.`;
      await loadPools();
      return;
    }
    await sleep(3000);
  }
}

/// A packed page's commitments (64 hex digits each, no separators) as the words the prover
/// module writes (`0x` + lower-case hex).
function unpack(packed) {
  const words = [];
  for (let i = 0; i < packed.length; i += 64) words.push(`0x${packed.slice(i, i + 64).toLowerCase()}`);
  return words;
}

// ---- withdraw -----------------------------------------------------------------------------

/// Every leaf the server holds for the pool, as the packed pages give them.
async function syncLeaves(denomination) {
  const leaves = [];
  const times = [];
  for (;;) {
    const page = await api(`/api/pools/${denomination}/leaves?format=packed&from=${leaves.length}`);
    if (page.from !== leaves.length) throw new Error("the server sent leaves out of order");
    const pageLeaves = unpack(page.commitments);
    const n = pageLeaves.length;
    leaves.push(...pageLeaves);
    times.push(...page.blockTimestamps);
    if (n === 0 || leaves.length >= page.total) return { leaves, times };
  }
}

/// The pool's root and the leaves that make it. The two are read apart (the root is cached
/// for a block or so), so a deposit in between is waited out.
async function syncPool(denomination) {
  for (let attempt = 0; ; attempt++) {
    const root = await api(`/api/pools/${denomination}/root`);
    const { leaves, times } = await syncLeaves(denomination);
    if (leaves.length === root.depositCount) {
      const checked = await prover.call({ op: "root", leaves });
      if (checked.root === root.root) return { root, leaves, times };
      throw new Error(`the server's leaves make root ${checked.root}, not the pool's ${root.root}: its list is wrong`);
    }
    if (attempt === 20) {
      throw new Error(`the server lists ${leaves.length} deposits and the pool has ${root.depositCount}: try again in a minute`);
    }
    await sleep(1000);
  }
}

/// Asks the pool, through the wallet's own node, whether it knows `root`: a check of what this
/// server sent that does not rest on this server. `false` when no wallet is connected.
async function knownToWallet(pool, root) {
  if (!state.wallet) return false;
  const answer = await state.wallet.transactionBuilder.triggerConstantContract(
    pool, "isKnownRoot(bytes32)", {}, [{ type: "bytes32", value: root }], state.account);
  const word = answer && answer.constant_result && answer.constant_result[0];
  if (!word) throw new Error("the wallet's node did not answer whether the pool knows the root");
  if (BigInt(`0x${word}`) !== 1n) {
    throw new Error(`the pool, asked through your wallet's node, does not know root ${root}: this server's pool data is wrong (or your wallet's node is behind; try again in a minute)`);
  }
  return true;
}

async function syncWithdrawals(denomination) {
  const spent = new Map();
  for (let from = 0; ;) {
    const page = await api(`/api/pools/${denomination}/withdrawals?from=${from}`);
    for (const w of page.withdrawals) spent.set(w.nullifierHash.toLowerCase(), w.txid);
    from += page.withdrawals.length;
    if (page.withdrawals.length === 0 || from >= page.total) return spent;
  }
}

async function checkWithdrawal() {
  $("withdraw-review").hidden = true;
  $("withdraw-result").hidden = true;
  const text = $("withdraw-note").value.trim();
  if (!text) throw new Error("paste a note first");
  const note = await prover.call({ op: "parseNote", note: text });
  if (note.network !== state.deployment.network) {
    throw new Error(`this note is for ${note.network}; this server's pools are on ${state.deployment.network}`);
  }
  const target = pool(note.denomination);
  const recipient = $("withdraw-recipient").value.trim();
  await prover.call({ op: "address", address: recipient });
  const mode = document.querySelector('input[name="withdraw-mode"]:checked').value;
  if (mode === "self") needWallet();
  const refund = sunOf($("withdraw-refund").value);

  say("Syncing the pool…");
  const { root, leaves, times } = await syncPool(note.denomination);
  const index = leaves.indexOf(note.commitment);
  if (index < 0) {
    throw new Error(`this note's deposit is not in the ${note.denomination} USDT pool's tree${target.queued ? " yet: it may be queued for the next batch" : ""}`);
  }
  const rootChecked = await knownToWallet(target.address, root.root);
  // The pool itself says whether the note is spent; the server's list of withdrawals, read
  // only then, names the transaction (it may be a block behind one sent from a wallet a
  // moment ago).
  const onChain = await api(`/api/pools/${note.denomination}/check-spent`, {
    method: "POST", body: { nullifierHash: note.nullifierHash },
  });
  if (onChain.spent) {
    const spentBy = (await syncWithdrawals(note.denomination)).get(note.nullifierHash.toLowerCase());
    throw new Error(`this note was already withdrawn (${spentBy ? `transaction ${spentBy}` : "its transaction is not in this server's list yet"})`);
  }

  const facts = $("withdraw-facts");
  facts.replaceChildren();
  let fee = "0";
  let relayer = null;
  if (mode === "relayer") {
    const status = await api("/api/relayer/status");
    if (!status.enabled || !status.address) throw new Error("this server's relayer is off: withdraw with your own account");
    const quote = status.fees.find((f) => f.denomination === note.denomination);
    if (!quote) throw new Error(`the relayer does not serve the ${note.denomination} USDT pool`);
    // The relayer's quote for a refund (GET /api/relayer/status): its fee, plus the refund's
    // TRX at its refund price (USDT base units per TRX), rounded up.
    const forRefund = (refund * BigInt(quote.refundPriceRaw) + 999_999n) / 1_000_000n;
    fee = (BigInt(quote.relayerFeeRaw) + forRefund).toString();
    relayer = status.address;
    const part = refund > 0n ? ` (${usdt(forRefund)} of it for the ${trx(refund)} TRX it sends along)` : "";
    item(facts, `The relayer's fee: ${usdt(fee)} USDT${part}; the recipient gets ${usdt(BigInt(target.denominationRaw) - BigInt(fee))} USDT.`);
  } else {
    item(facts, `The recipient gets ${target.denomination} USDT; your account pays the energy and is linked to this withdrawal on chain.`);
    if (refund > 0n) item(facts, `Your account sends ${trx(refund)} TRX along.`);
  }
  item(facts, `To ${recipient}.`);
  item(facts, rootChecked
    ? "The pool's root: checked with your wallet's node."
    : "The pool's root: as this server reports it (connect TronLink to check it with your wallet's node).");

  const rules = state.deployment.guidance;
  const guidance = $("withdraw-guidance");
  guidance.replaceChildren();
  const after = leaves.length - index - 1;
  item(facts, `Anonymity set: ${index} deposit(s) before yours and ${after} after.`);
  if (after < rules.minLaterDeposits) {
    item(guidance, `Only ${after} deposit(s) came after yours (fewer than ${rules.minLaterDeposits}): withdrawing now narrows who it could be; waiting for more deposits helps.`);
  }
  const deposited = times[index];
  if (deposited) {
    const since = Math.max(0, Math.floor((Date.now() - deposited) / 1000));
    item(facts, `Deposited ${duration(since)} ago.`);
    if (since < rules.minSecondsSinceDeposit) {
      item(guidance, `The deposit was made ${duration(since)} ago (under ${rules.minSecondsSinceDeposit / 3600} h): a withdrawal soon after a deposit is easy to pair with it by time.`);
    }
  }
  const funds = await api(`/api/balance/${recipient}`);
  if (BigInt(funds.trxRaw) === 0n && refund === 0n) {
    item(guidance, "The recipient holds no TRX and none is sent along: a fresh TRON address cannot move USDT without TRX for its fees. Send some along (above), or fund it from an account not linked to you.");
  }
  state.withdrawal = { text, note, root, leaves, recipient, relayer, fee, mode, refund: refund.toString() };
  $("withdraw-review").hidden = false;
  $("withdraw-progress").hidden = true;
  $("withdraw-send").disabled = false;
  say("Check the details, then prove and withdraw.");
}

async function withdraw() {
  const w = state.withdrawal;
  $("withdraw-send").disabled = true;
  $("withdraw-progress").hidden = false;
  const bar = $("prove-progress");
  const step = (value, text) => { bar.value = value; $("prove-step").textContent = text; };
  step(1, "Loading the proving key…");
  await prover.loadKey(state.deployment.verifyingKeySha256, (p) => step(1, `${p}…`));
  step(2, "Proving (this takes a few seconds)…");
  const started = performance.now();
  const proved = await prover.call({
    op: "prove", note: w.text, leaves: w.leaves, root: w.root.root, recipient: w.recipient,
    relayer: w.relayer, fee: w.fee, refund: w.refund, seed: randomHex(32),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  step(3, `Proved in ${seconds} s. Sending…`);
  let txid;
  if (w.mode === "relayer") {
    const relayed = await api("/api/relayer/withdraw", {
      method: "POST",
      body: {
        denomination: String(w.note.denomination), proof: proved.proof, root: proved.root,
        nullifierHash: proved.nullifierHash, recipient: w.recipient, fee: w.fee, refund: w.refund,
      },
    });
    txid = relayed.txid;
    showWithdrawn(txid, "Sent by the relayer; following it…");
    await followJob(txid);
  } else {
    const built = await api("/api/tx/withdraw", {
      method: "POST",
      body: {
        from: state.account, denomination: String(w.note.denomination), proof: proved.proof,
        root: proved.root, nullifierHash: proved.nullifierHash, recipient: w.recipient,
        refund: w.refund,
      },
    });
    await refreshAccount();
    const burn = burnOf(built);
    const spends = BigInt(burn.totalSun) + BigInt(w.refund);
    if (BigInt(state.balance.trxRaw) < spends) {
      throw new Error(`the withdrawal takes about ${trx(spends)} TRX (burned, and sent along) and the account holds ${trx(state.balance.trxRaw)}: add TRX first. Nothing was signed.`);
    }
    say(`Sign the withdrawal in TronLink (about ${trx(burn.totalSun)} TRX burned)…`);
    txid = await signAndSend(built, "withdrawal");
    showWithdrawn(txid, "In a block.");
    await refreshAccount();
  }
  step(4, "Done.");
  say(`Withdrawn: ${w.recipient} received the USDT.`, "ok");
}

function showWithdrawn(txid, text) {
  $("withdraw-result").hidden = false;
  $("withdraw-txid").textContent = txid;
  $("withdraw-state").textContent = text;
}

async function followJob(txid) {
  for (;;) {
    const job = await api(`/api/relayer/jobs/${txid}`);
    $("withdraw-state").textContent = `The relayer's transaction is ${job.state}.`;
    if (job.state === "confirmed") return;
    if (job.state === "failed") throw new Error(`the relayer's transaction failed: ${job.error || "no reason given"}`);
    await sleep(1500);
  }
}

// ---- wiring -------------------------------------------------------------------------------

/// Runs a button's work with the button disabled, showing any error it ends with. A button
/// that sends something (`once`) stays disabled after it succeeded.
function action(button, work, { once = false } = {}) {
  $(button).addEventListener("click", async (event) => {
    event.preventDefault();
    const target = $(button);
    target.disabled = true;
    try {
      await work();
      if (!once) target.disabled = false;
    } catch (e) {
      target.disabled = false;
      fail(e);
    }
  });
}

async function start() {
  for (const name of ["pools", "deposit", "withdraw"]) $(`tab-${name}`).addEventListener("click", () => show(name));
  action("connect", async () => {
    await connect();
    if (state.note && $("note-saved").checked && !state.note.sent) await reviewDeposit();
  });
  action("make-note", makeNote);
  // A note is made for one pool: choosing another drops a note not yet deposited.
  $("deposit-pool").addEventListener("change", () => {
    if (state.note && !state.note.sent) {
      state.note = null;
      $("deposit-note").value = "";
      for (const id of ["note-step", "cost-step", "deposit-result"]) $(id).hidden = true;
      say("Another pool: make a new note for it.");
    }
  });
  action("download-note", async () => downloadNote());
  action("copy-note", copyNote);
  $("note-saved").addEventListener("change", async () => {
    if (!$("note-saved").checked) { $("cost-step").hidden = true; return; }
    try { await reviewDeposit(); say("Ready: press the button to sign in TronLink."); } catch (e) { fail(e); }
  });
  action("deposit-send", deposit, { once: true });
  $("withdraw-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await checkWithdrawal(); } catch (e) { fail(e); }
  });
  action("withdraw-send", withdraw, { once: true });
  try {
    state.deployment = await api("/web/deployment.json");
    $("network-line").textContent = `Network: ${state.deployment.network}.`;
    $("version").textContent = state.deployment.version;
    if (!state.deployment.prover) {
      say("This build of tronpool cannot prove in the browser (its prover was not built): deposits work, withdrawals need the CLI.", "error");
    }
    await loadPools();
  } catch (e) {
    fail(e);
  }
}

start();
