#!/usr/bin/env bash
# Runs everything CI runs: go vet and every package's tests.
#
# Integration tests start their own servers (a Versity S3 gateway, a
# single-node OpenSearch) and skip loudly when they cannot; the test of
# sluice serve against the OpenSearch SQL CLI needs that CLI (a PyPI
# package in a venv, scripts/opensearchsql.sh); the fuzzer's DuckDB oracle
# needs the duckdb PyPI package in a venv (scripts/duckdb.sh); the web
# console's browser test needs Debian's chromium (scripts/chromium.sh).
# Installing them all
# first (once; minutes the first time) keeps downloads out of the test
# timeouts. In CI (CI=true) a test whose server is unavailable fails
# instead (internal/testutil/integration).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x scripts/versitygw.sh ]; then
	scripts/versitygw.sh >/dev/null || echo "warning: versitygw unavailable; S3 integration tests will skip (fail in CI)" >&2
fi
if [ -x scripts/opensearch.sh ]; then
	scripts/opensearch.sh install >/dev/null || echo "warning: OpenSearch unavailable; its integration tests will skip (fail in CI)" >&2
fi
if [ -x scripts/opensearchsql.sh ]; then
	scripts/opensearchsql.sh install >/dev/null || echo "warning: the OpenSearch SQL CLI is unavailable; its test against sluice serve will skip (fail in CI)" >&2
fi
if [ -x scripts/duckdb.sh ]; then
	scripts/duckdb.sh install >/dev/null || echo "warning: DuckDB unavailable; the fuzzer's DuckDB oracle (TestFuzzDuckDB) will skip (fail in CI)" >&2
fi
if [ -x scripts/chromium.sh ]; then
	scripts/chromium.sh >/dev/null || echo "warning: chromium unavailable; the web console's browser test will skip (fail in CI)" >&2
fi

if [ -x scripts/javabroker.sh ]; then
	for b in elasticmq kafka; do
		scripts/javabroker.sh "$b" >/dev/null || echo "warning: $b unavailable; its queue test will skip (fail in CI)" >&2
	done
fi

# The servers tests start (pgrep patterns); any still running after the
# tests that was not running before them is a leak, and fails the run.
servers='versitygw|org.opensearch.bootstrap|elasticmq|kafka.Kafka|nats-server|chromium.*--headless'
before="$(pgrep -f "$servers" | sort || true)"
leftovers() {
	comm -13 <(echo "$before") <(pgrep -f "$servers" | sort || true) | grep . || true
}

go vet ./...
go test -timeout 15m ./...

sleep 2 # a server's stop is asynchronous for a moment
if left="$(leftovers)" && [ -n "$left" ]; then
	echo "test.sh: tests left these processes running:" >&2
	for p in $left; do ps -o pid=,args= -p "$p" | cut -c1-200 >&2 || true; done
	kill $left 2>/dev/null || true
	exit 1
fi
