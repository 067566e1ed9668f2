#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the tests: a new cluster in a temporary folder, listening
# only on 127.0.0.1 at a free port, trusting local connections, run by a user that is not
# root (the server refuses to run as root). Source it: it exports TRONPOOL_TEST_POSTGRES (the
# URL of an empty database the tests make their own databases beside) and stops the server
# and removes the folder when the sourcing shell exits.
#
# PostgreSQL comes from the machine (/usr/lib/postgresql/*/bin, or `postgres` on the PATH),
# else from Debian's `postgresql` package.

pg_bin=""
for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && pg_bin="$dir"
done
if [ -z "$pg_bin" ] && command -v initdb >/dev/null 2>&1; then
    pg_bin="$(dirname "$(command -v initdb)")"
fi
if [ -z "$pg_bin" ]; then
    echo "PostgreSQL is not installed: installing Debian's postgresql package"
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
    else
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
    fi
    for dir in /usr/lib/postgresql/*/bin; do
        [ -x "$dir/initdb" ] && pg_bin="$dir"
    done
fi
[ -n "$pg_bin" ] || { echo "no PostgreSQL to test with" >&2; return 1 2>/dev/null || exit 1; }

pg_dir="$(mktemp -d /tmp/tronpool-pg.XXXXXX)"
pg_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
if [ "$(id -u)" = 0 ]; then
    # As root: the server runs as `nobody`, in a folder it owns.
    chown nobody "$pg_dir"
    pg_as=(runuser -u nobody --)
else
    pg_as=()
fi
"${pg_as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U tronpool --auth=trust -E UTF8 \
    --no-sync >"$pg_dir/initdb.log" 2>&1 \
    || { cat "$pg_dir/initdb.log" >&2; return 1 2>/dev/null || exit 1; }
# TLS offered with a certificate of a throwaway CA (for the tests of `sslmode=require`), when
# openssl is there; without it those tests say they were skipped.
pg_tls=""
if command -v openssl >/dev/null 2>&1; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=tronpool test CA" \
        -keyout "$pg_dir/ca.key" -out "$pg_dir/ca.pem" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
        -keyout "$pg_dir/server.key" -out "$pg_dir/server.csr" >/dev/null 2>&1
    printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$pg_dir/san.ext"
    openssl x509 -req -in "$pg_dir/server.csr" -CA "$pg_dir/ca.pem" -CAkey "$pg_dir/ca.key" \
        -CAcreateserial -days 2 -extfile "$pg_dir/san.ext" -out "$pg_dir/server.pem" >/dev/null 2>&1
    chmod 600 "$pg_dir/server.key"
    [ "$(id -u)" = 0 ] && chown nobody "$pg_dir/server.key" "$pg_dir/server.pem"
    pg_tls="-c ssl=on -c ssl_cert_file=$pg_dir/server.pem -c ssl_key_file=$pg_dir/server.key"
    export TRONPOOL_TEST_POSTGRES_CA="$pg_dir/ca.pem"
fi
# fsync off: a throwaway cluster; many connections: several `serve` replicas and the tests.
"${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 start \
    -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c fsync=off -c max_connections=300 $pg_tls" \
    >/dev/null || { cat "$pg_dir/server.log" >&2; return 1 2>/dev/null || exit 1; }
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U tronpool tronpool_test

tronpool_pg_stop() {
    "${pg_as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$pg_dir"
}
trap tronpool_pg_stop EXIT

export TRONPOOL_TEST_POSTGRES="postgres://tronpool@127.0.0.1:$pg_port/tronpool_test"
echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port ($pg_dir)"
