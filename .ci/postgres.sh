# Sourced by .ci/run (and usable by hand: `source .ci/postgres.sh && pg_start`):
# a private PostgreSQL cluster in a temporary folder on a free 127.0.0.1
# port, run as the unprivileged `postgres` user when started as root.
# `pg_start` exports SPELBORD_TEST_PG (the URL the PostgreSQL tests use);
# `pg_stop` stops the cluster and removes its folder.

pg_start() {
  local bin
  bin=$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -n 1)
  if [ -z "$bin" ]; then
    echo "installing postgresql for the PostgreSQL tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  PG_DIR=$(mktemp -d /tmp/spelbord-pg.XXXXXX)
  local as=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$PG_DIR"
    as=(runuser -u postgres --)
  fi
  PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  PG_CTL=("${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data")
  "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U spelbord --auth=trust -E UTF8 >/dev/null
  "${PG_CTL[@]}" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
  export SPELBORD_TEST_PG="postgres://spelbord@127.0.0.1:$PG_PORT/postgres"
  echo "PostgreSQL for the tests: $SPELBORD_TEST_PG"
}

pg_stop() {
  if [ -n "${PG_DIR:-}" ]; then
    "${PG_CTL[@]}" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
    PG_DIR=
  fi
}
