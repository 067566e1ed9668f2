#!/usr/bin/env bash
# Installs what the web page's browser test (tests/it/web.rs, tests/web/page.mjs) needs:
# Debian's Chromium (apt-get) and this folder's npm packages (playwright-core to drive it,
# axe-core to check accessibility, TronWeb as the stand-in wallet), pinned by package-lock.json.
# Prints the browser's path last, for TRONPOOL_TEST_BROWSER.
#
#   bash tests/web/install.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
say() { printf 'web-install: %s\n' "$*" >&2; }

if ! command -v chromium >/dev/null 2>&1; then
    say "installing Debian's chromium"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null 2>&1 ||
        { $sudo apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; }
fi

# npm ci only when the lock file changed since the last install.
stamp="$HERE/node_modules/.installed-lock"
if ! cmp -s "$HERE/package-lock.json" "$stamp" 2>/dev/null; then
    say "npm ci (playwright-core, axe-core, tronweb)"
    (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error >&2)
    cp "$HERE/package-lock.json" "$stamp"
fi
command -v chromium
