#!/usr/bin/env bash
# Runs a complete, small Groth16 ceremony with snarkjs on an .r1cs file, the way a real one
# goes (docs/ceremony.md), so tests can load and use what a ceremony produces:
#
#   bash tests/interop/ceremony.sh R1CS OUTDIR [NAME [POWER]]
#
# NAME is the circuit's (default withdraw) and POWER the ptau's (default 13; the batch
# circuit needs 15). Writes OUTDIR/NAME.zkey and OUTDIR/NAME_verification_key.json, and keeps
# the uncontributed setup output as OUTDIR/NAME_0000.zkey (tests show it is refused); the
# log is OUTDIR/NAME_ceremony.log. Phase 1 is a fresh powers of tau with one contribution
# (insecure: its entropy is thrown away; a real ceremony starts from the public Perpetual
# Powers of Tau instead), then Phase 2: setup, two contributions, a beacon, `zkey verify` and
# the verifying key export.
#
# Idempotent and cached: OUTDIR/NAME.stamp records the r1cs's SHA-256, the snarkjs version,
# the ptau and this script; when it matches nothing runs. The prepared ptau (minutes of work
# on two cores) is kept in OUTDIR and reused whenever its own stamp matches. A lock on OUTDIR
# makes concurrent callers wait for each other instead of racing.
#
# Needs node and snarkjs in tests/interop/node_modules (`bash tests/interop/install.sh`).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

say() { printf 'ceremony: %s\n' "$*" >&2; }
die() { printf 'ceremony: error: %s\n' "$*" >&2; exit 1; }

[ $# -ge 2 ] && [ $# -le 4 ] || die "usage: $0 R1CS OUTDIR [NAME [POWER]]"
R1CS="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
OUT="$2"
NAME="${3:-withdraw}"
POWER="${4:-13}"
case "$NAME" in *[!a-z0-9_]* | "") die "NAME must be lowercase letters, digits and _" ;; esac
case "$POWER" in *[!0-9]* | "") die "POWER must be a number" ;; esac
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
STAMP="$OUT/$NAME.stamp"

ptau_ok() { [ -f "$PTAU" ] && [ -f "$PTAU_STAMP" ] && [ "$(cat "$PTAU_STAMP")" = "$ptau_want" ]; }
zkey_want() {
    printf 'r1cs %s\nsnarkjs %s\nptau %s\nscript %s\n' \
        "$(sha "$R1CS")" "$SNARKJS_VERSION" "$(sha "$PTAU")" "$(sha "${BASH_SOURCE[0]}")"
}

if ptau_ok && [ -f "$OUT/$NAME.zkey" ] && [ -f "$OUT/${NAME}_verification_key.json" ] &&
    [ -f "$OUT/${NAME}_0000.zkey" ] &&
    [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(zkey_want)" ]; then
    say "cached: $OUT/$NAME.zkey (r1cs, snarkjs $SNARKJS_VERSION and ptau unchanged)"
    exit 0
fi

WORK="$(mktemp -d "$OUT/.work.XXXXXX")"
LOG="$OUT/${NAME}_ceremony.log"
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

Z="$WORK/$NAME"
cp "$R1CS" "$Z.r1cs"
step "phase 2: groth16 setup" groth16 setup "$Z.r1cs" "$PTAU" "${Z}_0000.zkey"
step "phase 2: first contribution" zkey contribute "${Z}_0000.zkey" "${Z}_0001.zkey" \
    --name="tronpool test contributor 1" -e="$(entropy)"
step "phase 2: second contribution" zkey contribute "${Z}_0001.zkey" "${Z}_0002.zkey" \
    --name="tronpool test contributor 2" -e="$(entropy)"
step "phase 2: beacon" zkey beacon "${Z}_0002.zkey" "$Z.zkey" "$(entropy)" 10 \
    -n="tronpool test beacon"
step "verify the final zkey against the r1cs and the ptau" zkey verify "$Z.r1cs" "$PTAU" "$Z.zkey"
grep -q 'ZKey Ok!' "$LOG" || die "zkey verify did not say 'ZKey Ok!' (log: $LOG)"
step "export the verifying key" zkey export verificationkey "$Z.zkey" "${Z}_verification_key.json"

rm -f "$STAMP"
mv "$Z.zkey" "$OUT/$NAME.zkey"
mv "${Z}_0000.zkey" "$OUT/${NAME}_0000.zkey"
mv "${Z}_verification_key.json" "$OUT/${NAME}_verification_key.json"
zkey_want >"$STAMP"
say "wrote $OUT/$NAME.zkey and $OUT/${NAME}_verification_key.json"
