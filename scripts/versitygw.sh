#!/usr/bin/env bash
# Installs the Versity S3 gateway used by the storage integration tests,
# unless it is already on PATH or in $(go env GOPATH)/bin. Prints its path.
set -euo pipefail
VERSION="${VERSITYGW_VERSION:-v1.8.0}"
bin="$(go env GOPATH)/bin/versitygw"
if command -v versitygw >/dev/null 2>&1; then
	command -v versitygw
	exit 0
fi
if [ ! -x "$bin" ]; then
	echo "installing versitygw $VERSION (takes a couple of minutes the first time)..." >&2
	. "$(dirname "$0")/quiet.sh"
	quiet versitygw-go-install go install "github.com/versity/versitygw/cmd/versitygw@${VERSION}"
fi
echo "$bin"
