#!/usr/bin/env bash
# A throwaway PostgreSQL cluster (Debian's newest installed major, 15 on bookworm) for tests (docs/architecture.md, "PostgreSQL in tests").
#
#   source .ci/postgres.sh start     # starts a cluster, exports DATABASE_URL and PG_TEST_DIR
#   .ci/postgres.sh stop "$PG_TEST_DIR"   # stops it and removes its folder
#   .ci/postgres.sh start --print    # (not sourced) prints `export ...` lines for eval
#   .ci/postgres.sh available        # exits 0 when initdb is installed
#
# initdb and pg_ctl refuse to run as root, so when run as root the cluster lives in a temp folder owned by the
# postgres user and the server commands run through `runuser -u postgres --`. Trust auth, 127.0.0.1 only, a free
# port, and the socket inside the folder: nothing outside the folder is touched.
# .ci/with-postgres.sh wraps start/stop around a command and always cleans up.

PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
PG_DB_NAME="${PG_DB_NAME:-member_dapp_test}"

as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  # Ask the kernel for a free loopback port; the tiny race until postgres binds it is acceptable in CI.
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

pg_start() {
  local print=0
  [ "${1:-}" = "--print" ] && print=1
  [ -x "$PG_BIN/initdb" ] || { echo "postgres.sh: $PG_BIN/initdb not found (apt-get install postgresql)" >&2; return 1; }

  local dir port
  dir="$(mktemp -d /tmp/md-pg.XXXXXX)"
  chmod 700 "$dir"
  if [ "$(id -u)" = "0" ]; then chown postgres:postgres "$dir"; fi
  port="$(free_port)"

  as_owner "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; return 1; }
  as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null \
    || { cat "$dir/server.log" >&2; rm -rf "$dir"; return 1; }
  as_owner "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$PG_DB_NAME" \
    || { pg_stop "$dir"; return 1; }

  local url="postgres://postgres@127.0.0.1:$port/$PG_DB_NAME"
  if [ "$print" = "1" ]; then
    printf 'export DATABASE_URL=%q\nexport PG_TEST_DIR=%q\n' "$url" "$dir"
  else
    export DATABASE_URL="$url" PG_TEST_DIR="$dir"
    echo "postgres.sh: PostgreSQL ($PG_BIN) on 127.0.0.1:$port (folder $dir); DATABASE_URL=$url" >&2
  fi
}

pg_stop() {
  local dir="${1:-${PG_TEST_DIR:-}}"
  [ -n "$dir" ] || { echo "postgres.sh: stop needs the cluster folder (or PG_TEST_DIR)" >&2; return 1; }
  case "$dir" in /tmp/md-pg.*) ;; *) echo "postgres.sh: refusing to remove $dir (not a folder this script made)" >&2; return 1 ;; esac
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

# Sourced: run the requested function in the caller's shell (so the exports stay), leaving its options alone.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  case "${1:-}" in
    start) shift; pg_start "$@" ;;
    stop) shift; pg_stop "$@" ;;
    "") ;;
    *) echo "usage: source .ci/postgres.sh start | stop [dir]" >&2; false ;;
  esac
  return
fi

set -euo pipefail
case "${1:-}" in
  start) shift; pg_start --print ;;
  stop) shift; pg_stop "$@" ;;
  available) [ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] ;;
  *) echo "usage: .ci/postgres.sh start | stop <dir> | available   (or: source .ci/postgres.sh start)" >&2; exit 2 ;;
esac
