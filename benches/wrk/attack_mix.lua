-- wrk script: the attack mix of benches/api.rs, from outside the server's process, so the same
-- load can be sent to `serve` and to nginx serving the same body (BENCHMARKS.md, "The attack
-- mix from wrk"). Every tenth request is GET /api/balance/T followed by z's, ATTACK_LEN
-- characters of path in all (default 60,000: past any server's head limit, refused and the
-- connection closed, so wrk connects again); the rest are GET /api/pools/100. MIX=0 sends only
-- the pool reads (the clean run). Prints the pool reads' rate (200 answers a second).
--
--   MIX=1 wrk -t1 -c32 -d5s -s benches/wrk/attack_mix.lua http://127.0.0.1:8787
local threads = {}
function setup(thread) table.insert(threads, thread) end

local attack_len = tonumber(os.getenv("ATTACK_LEN") or "60000")
local mix = os.getenv("MIX") ~= "0"
local pool, attack

-- wrk.format reads the Host header wrk sets up per thread: format in init, not at load.
function init(args)
  n, ok, refused = 0, 0, 0
  pool = wrk.format("GET", "/api/pools/100")
  attack = wrk.format("GET", "/api/balance/T" .. string.rep("z", attack_len - 14))
end

function request()
  n = n + 1
  if mix and n % 10 == 0 then return attack end
  return pool
end

function response(status, headers, body)
  if status == 200 then ok = ok + 1 else refused = refused + 1 end
end

function done(summary, latency, requests)
  local pool_reads, refusals = 0, 0
  for _, t in ipairs(threads) do
    pool_reads = pool_reads + t:get("ok")
    refusals = refusals + t:get("refused")
  end
  io.write(string.format("pool reads/s %.0f; refused %d; socket errors: connect %d, read %d, write %d\n",
    pool_reads / (summary.duration / 1e6), refusals,
    summary.errors.connect, summary.errors.read, summary.errors.write))
end
