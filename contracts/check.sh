#!/usr/bin/env bash
# Checks that contracts/artifacts is exactly what the pinned solc makes of contracts/src.
# Idempotent: `npm ci` runs only when package-lock.json, package.json or the node version
# changed since the last install (a stamp in node_modules records them); then
# `node build.js --check` recompiles in memory and compares byte for byte.
#
#   bash contracts/check.sh
#
# Needs node 20 and npm; network access to the npm registry only on the first run (or after
# the lockfile changes). To regenerate the artifacts: node contracts/build.js
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

say() { printf 'contracts-check: %s\n' "$*"; }
die() { printf 'contracts-check: error: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || die "node not found"
command -v npm >/dev/null 2>&1 || die "npm not found"

stamp="$HERE/node_modules/.contracts-lock.sha256"
want="$( { sha256sum "$HERE/package-lock.json" "$HERE/package.json" | cut -d' ' -f1; node --version; } | sha256sum | cut -d' ' -f1)"
if [ -d "$HERE/node_modules" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "npm: package-lock.json unchanged, skipped"
else
    (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || die "npm ci failed"
    (cd "$HERE" && node -e "require('solc')") || die "solc does not load after npm ci"
    printf '%s\n' "$want" >"$stamp"
    say "npm: installed solc@$(cd "$HERE" && node -p "require('solc/package.json').version") into $HERE/node_modules"
fi

(cd "$HERE" && node build.js --check)
