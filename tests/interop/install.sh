#!/usr/bin/env bash
# Installs the independent implementations used by tronpool's interop tests:
# tronpy (PyPI, into <repo>/.tools/venv), TronWeb, circomlibjs and snarkjs (npm,
# into tests/interop/node_modules; snarkjs runs ceremony.sh, the test ceremony).
# Idempotent: each step is skipped when a stamp shows the same pinned inputs were
# already installed.
#
#   bash tests/interop/install.sh
#
# Needs python3 (3.11) with venv support, node 20 and npm; network access to
# PyPI and the npm registry only on the first run (or after a pin changes).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TOOLS="$REPO/.tools"
VENV="$TOOLS/venv"
PYTHON="${PYTHON:-python3}"

say() { printf 'interop-install: %s\n' "$*"; }
die() { printf 'interop-install: error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found"
command -v node >/dev/null 2>&1 || die "node not found"
command -v npm >/dev/null 2>&1 || die "npm not found"
mkdir -p "$TOOLS"

# --- Python venv + tronpy ----------------------------------------------------
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    rm -rf "$VENV"
    if ! "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then
        rm -rf "$VENV"
        # Debian's own python3 ships venv/ensurepip separately.
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            say "python venv module missing: apt-get install python3-venv"
            (apt-get install -y -qq python3-venv >/dev/null 2>&1 ||
                { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq python3-venv >/dev/null 2>&1; }) ||
                die "could not install python3-venv"
            "$PYTHON" -m venv "$VENV" || die "python3 -m venv failed"
        else
            die "'$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
        fi
    fi
    say "created venv $VENV"
else
    say "venv $VENV exists"
fi

py_stamp="$VENV/.interop-requirements.sha256"
py_want="$( { sha256sum "$HERE/requirements.txt"; "$VENV/bin/python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [ -f "$py_stamp" ] && [ "$(cat "$py_stamp")" = "$py_want" ]; then
    say "pip: requirements.txt unchanged, skipped"
else
    rm -f "$py_stamp"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
        -r "$HERE/requirements.txt" || die "pip install failed"
    "$VENV/bin/python" -c 'import tronpy.proto.tron_pb2, tronpy.keys' || die "tronpy does not import after install"
    printf '%s\n' "$py_want" >"$py_stamp"
    say "pip: installed $(grep -E '^tronpy==' "$HERE/requirements.txt") and pins into $VENV"
fi

# --- npm: TronWeb, circomlibjs, snarkjs ----------------------------------------
npm_stamp="$HERE/node_modules/.interop-lock.sha256"
npm_want="$( { sha256sum "$HERE/package-lock.json" "$HERE/package.json" | cut -d' ' -f1; node --version; } | sha256sum | cut -d' ' -f1)"
if [ -d "$HERE/node_modules" ] && [ -f "$npm_stamp" ] && [ "$(cat "$npm_stamp")" = "$npm_want" ]; then
    say "npm: package-lock.json unchanged, skipped"
else
    (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed"
    (cd "$HERE" && node -e "require('tronweb'); require('circomlibjs'); require('snarkjs')") ||
        die "tronweb, circomlibjs or snarkjs does not load after npm ci"
    [ -f "$HERE/node_modules/snarkjs/build/cli.cjs" ] || die "snarkjs has no CLI (build/cli.cjs)"
    printf '%s\n' "$npm_want" >"$npm_stamp"
    say "npm: installed tronweb@$(cd "$HERE" && node -p "require('tronweb').TronWeb.version"), circomlibjs and snarkjs into $HERE/node_modules"
fi
