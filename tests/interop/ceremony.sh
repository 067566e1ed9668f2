#!/usr/bin/env bash
# Runs a complete, small Groth16 ceremony with snarkjs on an .r1cs file, the way a real one
# goes (docs/ceremony.md), so tests can load and use what a ceremony produces:
#
#   bash tests/interop/ceremony.sh R1CS OUTDIR
#
# writes OUTDIR/withdraw.zkey and OUTDIR/verification_key.json, and keeps the uncontributed
# setup output as OUTDIR/withdraw_0000.zkey (tests show it is refused). Phase 1 is a fresh
# power-13 powers of tau with one contribution (insecure: its entropy is thrown away; a real
# ceremony starts from the public Perpetual Powers of Tau instead), then Phase 2: setup, two
# contributions, a beacon, `zkey verify` and the verifying key export.
#
# Idempotent and cached: OUTDIR/withdraw.stamp records the r1cs's SHA-256, the snarkjs
# version, the ptau and this script; when it matches nothing runs. The prepared ptau (minutes
# of work on two cores) is kept in OUTDIR and reused whenever its own stamp matches. A lock
# on OUTDIR makes concurrent callers wait for each other instead of racing.
#
# Needs node and snarkjs in tests/interop/node_modules (`bash tests/interop/install.sh`).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
POWER=13

say() { printf 'ceremony: %s\n' "$*" >&2; }
die() { printf 'ceremony: error: %s\n' "$*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 R1CS OUTDIR"
R1CS="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
OUT="$2"
[ -f "$R1CS" ] || die "$R1CS: no such file"
command -v node >/dev/null 2>&1 || die "node not found"
command -v flock >/dev/null 2>&1 || die "flock not found (util-linux)"
CLI="$HERE/node_modules/snarkjs/build/cli.cjs"
[ -f "$CLI" ] || die "snarkjs is not installed in $HERE/node_modules: run 'bash tests/interop/install.sh'"
SNARKJS_VERSION="$(node -p "JSON.parse(require('fs').readFileSync('$HERE/node_modules/snarkjs/package.json')).version")"

mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
exec 9>"$OUT/.lock"
if ! flock -n 9; then
    say "another ceremony holds $OUT/.lock; waiting"
    flock -w 3600 9 || die "gave up waiting for $OUT/.lock"
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }
entropy() { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; }

PTAU="$OUT/pot${POWER}_final.ptau"
PTAU_STAMP="$PTAU.stamp"
ptau_want="snarkjs $SNARKJS_VERSION power $POWER"
STAMP="$OUT/withdraw.stamp"

ptau_ok() { [ -f "$PTAU" ] && [ -f "$PTAU_STAMP" ] && [ "$(cat "$PTAU_STAMP")" = "$ptau_want" ]; }
zkey_want() {
    printf 'r1cs %s\nsnarkjs %s\nptau %s\nscript %s\n' \
        "$(sha "$R1CS")" "$SNARKJS_VERSION" "$(sha "$PTAU")" "$(sha "${BASH_SOURCE[0]}")"
}

if ptau_ok && [ -f "$OUT/withdraw.zkey" ] && [ -f "$OUT/verification_key.json" ] &&
    [ -f "$OUT/withdraw_0000.zkey" ] &&
    [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(zkey_want)" ]; then
    say "cached: $OUT/withdraw.zkey (r1cs, snarkjs $SNARKJS_VERSION and ptau unchanged)"
    exit 0
fi

WORK="$(mktemp -d "$OUT/.work.XXXXXX")"
LOG="$OUT/ceremony.log"
: >"$LOG"
trap 'rm -rf "$WORK"' EXIT

snarkjs() {
    printf '$ snarkjs %s\n' "$*" >>"$LOG"
    if ! node "$CLI" "$@" >>"$LOG" 2>&1; then
        tail -n 30 "$LOG" >&2
        die "snarkjs $1 $2 failed (full log: $LOG)"
    fi
}

step() {
    local started=$SECONDS
    say "$1"
    shift
    snarkjs "$@"
    say "  done in $((SECONDS - started)) s"
}

if ptau_ok; then
    say "reusing $PTAU"
else
    rm -f "$PTAU" "$PTAU_STAMP"
    step "phase 1: new powers of tau, 2^$POWER" powersoftau new bn128 "$POWER" "$WORK/pot_0000.ptau"
    step "phase 1: one contribution" powersoftau contribute "$WORK/pot_0000.ptau" "$WORK/pot_0001.ptau" \
        --name="tronpool test phase 1" -e="$(entropy)"
    step "phase 1: prepare phase 2 (the slow step)" powersoftau prepare phase2 "$WORK/pot_0001.ptau" "$WORK/pot.ptau"
    mv "$WORK/pot.ptau" "$PTAU"
    printf '%s\n' "$ptau_want" >"$PTAU_STAMP"
    rm -f "$WORK"/pot_*.ptau
fi

cp "$R1CS" "$WORK/withdraw.r1cs"
step "phase 2: groth16 setup" groth16 setup "$WORK/withdraw.r1cs" "$PTAU" "$WORK/withdraw_0000.zkey"
step "phase 2: first contribution" zkey contribute "$WORK/withdraw_0000.zkey" "$WORK/withdraw_0001.zkey" \
    --name="tronpool test contributor 1" -e="$(entropy)"
step "phase 2: second contribution" zkey contribute "$WORK/withdraw_0001.zkey" "$WORK/withdraw_0002.zkey" \
    --name="tronpool test contributor 2" -e="$(entropy)"
step "phase 2: beacon" zkey beacon "$WORK/withdraw_0002.zkey" "$WORK/withdraw.zkey" "$(entropy)" 10 \
    -n="tronpool test beacon"
step "verify the final zkey against the r1cs and the ptau" zkey verify "$WORK/withdraw.r1cs" "$PTAU" "$WORK/withdraw.zkey"
grep -q 'ZKey Ok!' "$LOG" || die "zkey verify did not say 'ZKey Ok!' (log: $LOG)"
step "export the verifying key" zkey export verificationkey "$WORK/withdraw.zkey" "$WORK/verification_key.json"

rm -f "$STAMP"
mv "$WORK/withdraw.zkey" "$OUT/withdraw.zkey"
mv "$WORK/withdraw_0000.zkey" "$OUT/withdraw_0000.zkey"
mv "$WORK/verification_key.json" "$OUT/verification_key.json"
zkey_want >"$STAMP"
say "wrote $OUT/withdraw.zkey and $OUT/verification_key.json"
