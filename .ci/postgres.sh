#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the server's tests (docs/server.md, "Tests").
#
#   eval "$(.ci/postgres.sh start)"   # initdb in a temp dir, start it on a free local port, create a
#                                     # database; prints `export REGALIA_TEST_POSTGRES=...` and
#                                     # `export REGALIA_PG_DIR=...` for eval
#   .ci/postgres.sh stop [DIR]        # stop that cluster and delete its folder (DIR: $REGALIA_PG_DIR)
#   .ci/postgres.sh bindir            # the folder of the server binaries (pg_ctl, initdb, postgres);
#                                     # fails if there are none
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (Debian's
# package makes it), or to a system user `regalia-pg` made for it when there is none.
set -euo pipefail

PG_USER=regalia
PG_DB=regalia

say() { echo "postgres.sh: $*" >&2; }

# The folder holding pg_ctl, initdb and postgres: the one pg_ctl in PATH lives in (symlinks
# resolved), else the newest /usr/lib/postgresql/*/bin (Debian's packages put them there only).
bindir() {
  local candidate dir
  if candidate=$(command -v pg_ctl 2>/dev/null); then
    dir=$(dirname "$(readlink -f "$candidate")")
    if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5,5 -rn); do
    if [ -x "$dir/pg_ctl" ] && [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

# The user the cluster runs as: ourselves, or (as root) postgres / regalia-pg.
owner() {
  if [ "$(id -u)" != 0 ]; then
    id -un
  elif id postgres >/dev/null 2>&1; then
    echo postgres
  else
    id regalia-pg >/dev/null 2>&1 \
      || useradd --system --no-create-home --shell /usr/sbin/nologin regalia-pg
    echo regalia-pg
  fi
}

as_owner() {
  local user=$1
  shift
  if [ "$user" = "$(id -un)" ]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    runuser -u "$user" -- "$@"
  else
    su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local bin user dir port
  if ! bin=$(bindir); then
    say "no PostgreSQL server binaries (pg_ctl, initdb) in PATH or /usr/lib/postgresql/*/bin;"
    say "install them, e.g. apt-get install postgresql"
    exit 1
  fi
  user=$(owner)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/regalia-pg.XXXXXX")
  chmod 755 "$dir"
  [ "$user" = "$(id -un)" ] || chown "$user" "$dir"
  port=$(free_port)
  say "cluster of $bin in $dir on 127.0.0.1:$port (runs as $user)"
  # cd: the owner may not be allowed into the caller's folder.
  if ! (cd "$dir" && as_owner "$user" "$bin/initdb" -D "$dir/data" -U "$PG_USER" -A trust -E UTF8 \
      --no-locale --no-sync >"$dir/initdb.log" 2>&1); then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    say "initdb failed"
    exit 1
  fi
  if ! (cd "$dir" && as_owner "$user" "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/postgres.log" -w -t 60 \
      -o "-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off \
-c synchronous_commit=off -c full_page_writes=off" start >&2); then
    cat "$dir/data/postgres.log" >&2 || true
    rm -rf "$dir"
    say "the server did not start"
    exit 1
  fi
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$PG_USER" "$PG_DB"
  echo "export REGALIA_PG_DIR='$dir'"
  echo "export REGALIA_TEST_POSTGRES='postgresql+psycopg://$PG_USER@127.0.0.1:$port/$PG_DB'"
}

stop() {
  local dir=${1:-${REGALIA_PG_DIR:-}} bin user
  if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
    say "no cluster to stop (give its folder, or set REGALIA_PG_DIR)"
    exit 1
  fi
  bin=$(bindir)
  user=$(stat -c %U "$dir/data")
  (cd "$dir" && as_owner "$user" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2) || true
  rm -rf "$dir"
  say "stopped and removed $dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  bindir) bindir ;;
  *)
    echo "usage: $0 start | stop [DIR] | bindir" >&2
    exit 2
    ;;
esac
