#!/usr/bin/env bash
# Runs everything CI runs: go vet and every package's tests.
#
# The S3 integration tests start a local Versity S3 gateway themselves;
# installing it first (once, a couple of minutes) keeps that out of the
# test timeout. Without it those tests skip and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x scripts/versitygw.sh ]; then
	scripts/versitygw.sh >/dev/null || echo "warning: versitygw unavailable; S3 integration tests will skip" >&2
fi

go vet ./...
go test -timeout 10m ./...
