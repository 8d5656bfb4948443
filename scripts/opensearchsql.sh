#!/usr/bin/env bash
# The OpenSearch SQL CLI (PyPI package opensearchsql), a real client of
# the OpenSearch SQL REST API, for the tests of `sluice serve`.
#
#   scripts/opensearchsql.sh install   # once; prints the path of the opensearchsql command
#
# It lives in a virtualenv under the cache dir (like scripts/opensearch.sh's
# node), installed from PyPI with pip, so tests never download anything.
set -euo pipefail

VERSION="${OPENSEARCHSQL_VERSION:-1.0.0}"
if [ "$(id -u)" = 0 ]; then
	CACHE="${SLUICE_CACHE_DIR:-/var/cache/sluice}"
else
	CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}"
fi
. "$(dirname "$0")/quiet.sh"
VENV="$CACHE/opensearchsql-$VERSION"

die() {
	echo "opensearchsql.sh: $*" >&2
	exit 1
}

install() {
	# .installed is written last: a venv without it is a broken install.
	if [ -x "$VENV/bin/opensearchsql" ] && [ -f "$VENV/.installed" ]; then
		echo "$VENV/bin/opensearchsql"
		return
	fi
	command -v python3 >/dev/null || die "python3 not found"
	mkdir -p "$CACHE"
	echo "installing opensearchsql $VERSION into $VENV (once)..." >&2
	rm -rf "$VENV"
	python3 -m venv "$VENV" || die "python3 -m venv failed (is python3-venv installed?)"
	quiet opensearchsql-pip "$VENV/bin/pip" install -q --disable-pip-version-check "opensearchsql==$VERSION" ||
		{
			rm -rf "$VENV"
			die "pip could not install opensearchsql==$VERSION"
		}
	touch "$VENV/.installed"
	echo "$VENV/bin/opensearchsql"
}

case "${1:-install}" in
install) install ;;
*) die "unknown command $1 (install)" ;;
esac
