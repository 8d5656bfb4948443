#!/usr/bin/env bash
# Runs the benchmark queries Q1-Q4 with Sluice and with DuckDB on the same
# generated data, whole process against whole process, and prints both
# times, the ratio and whether the answers agree. Outside CI only: it
# installs DuckDB from PyPI into a virtualenv the first time.
#
#   go run ./bench gen --size 1GB --out /tmp/sluice-bench-1g --files 8 --seed 1
#   bench/peers.sh /tmp/sluice-bench-1g                 # ndjson and parquet, best of 3
#   bench/peers.sh /tmp/sluice-bench-1g ndjson 5        # one layout, best of 5
#   PEERS_QUERIES=Q5,W1 bench/peers.sh /tmp/sluice-bench-1g parquet 1   # subquery, window
#
# PEERS_VENV (default /tmp/sluice-peers-venv) and DUCKDB_VERSION
# (default 2.0.1) choose the virtualenv and the DuckDB release.
set -euo pipefail

data="${1:?usage: bench/peers.sh DATA_DIR [ndjson|parquet|all] [REPEAT]}"
layouts="${2:-all}"
repeat="${3:-3}"
venv="${PEERS_VENV:-/tmp/sluice-peers-venv}"
version="${DUCKDB_VERSION:-2.0.1}"
root="$(cd "$(dirname "$0")/.." && pwd)"

if ! "$venv/bin/python" -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$version')" 2>/dev/null; then
	echo "installing duckdb $version into $venv ..." >&2
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q "duckdb==$version"
fi
bin="$(mktemp -d)/sluice"
(cd "$root" && go build -o "$bin" ./cmd/sluice)
exec "$venv/bin/python" "$root/bench/peers.py" --data "$data" --sluice "$bin" --layouts "$layouts" --repeat "$repeat" --queries "${PEERS_QUERIES:-Q1,Q2,Q3,Q4}"
