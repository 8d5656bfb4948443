#!/usr/bin/env bash
# Runs issue 14's two stream jobs (1-minute tumbling count/sum by status;
# filter + projection) with Sluice and with Spark Structured Streaming in
# local[2] on the same NDJSON files, and prints both times, the ratios and
# whether the outputs agree. Outside CI only: it installs PySpark from
# PyPI into a virtualenv the first time (Spark needs Java 17+).
#
#   go run ./bench gen --rows 10000000 --files 200 --layouts ndjson --out /tmp/sluice-spark-10m --seed 1
#   bench/spark.sh /tmp/sluice-spark-10m/ndjson           # both jobs, one run each
#   bench/spark.sh /tmp/sluice-spark-10m/ndjson window 3  # one job, best of 3
#
# SPARK_VENV (default /tmp/sluice-spark-venv) and PYSPARK_VERSION (default
# 4.0.1) choose the virtualenv and the release.
set -euo pipefail

data="${1:?usage: bench/spark.sh NDJSON_DIR [window,filter] [REPEAT]}"
jobs="${2:-window,filter}"
repeat="${3:-1}"
venv="${SPARK_VENV:-/tmp/sluice-spark-venv}"
version="${PYSPARK_VERSION:-4.0.1}"
root="$(cd "$(dirname "$0")/.." && pwd)"

if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$version')" 2>/dev/null; then
	echo "installing pyspark $version into $venv ..." >&2
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q "pyspark==$version"
fi
bin="$(mktemp -d)/sluice"
(cd "$root" && go build -o "$bin" ./cmd/sluice)
exec "$venv/bin/python" "$root/bench/spark_stream.py" --data "$data" --sluice "$bin" --jobs "$jobs" --repeat "$repeat"
