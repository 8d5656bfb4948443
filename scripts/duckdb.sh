#!/usr/bin/env bash
# DuckDB (PyPI package duckdb) in a virtualenv, the second engine of the
# fuzzer's differential oracle (internal/fuzz/duckdb.go).
#
#   scripts/duckdb.sh install   # once; prints the path of the venv's python3
#
# It lives in a virtualenv under the cache dir (like scripts/opensearchsql.sh),
# installed from PyPI with pip and pinned, so tests never download anything
# and a new DuckDB release cannot change the oracle's answers unnoticed.
set -euo pipefail

VERSION="${DUCKDB_VERSION:-2.0.1}"
if [ "$(id -u)" = 0 ]; then
	CACHE="${SLUICE_CACHE_DIR:-/var/cache/sluice}"
else
	CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}"
fi
. "$(dirname "$0")/quiet.sh"
VENV="$CACHE/duckdb-$VERSION"

die() {
	echo "duckdb.sh: $*" >&2
	exit 1
}

install() {
	# .installed is written last: a venv without it is a broken install.
	if [ -x "$VENV/bin/python3" ] && [ -f "$VENV/.installed" ]; then
		echo "$VENV/bin/python3"
		return
	fi
	command -v python3 >/dev/null || die "python3 not found"
	mkdir -p "$CACHE"
	echo "installing duckdb $VERSION into $VENV (once)..." >&2
	rm -rf "$VENV"
	python3 -m venv "$VENV" || die "python3 -m venv failed (is python3-venv installed?)"
	quiet duckdb-pip "$VENV/bin/pip" install -q --disable-pip-version-check "duckdb==$VERSION" ||
		{
			rm -rf "$VENV"
			die "pip could not install duckdb==$VERSION"
		}
	"$VENV/bin/python3" -c 'import duckdb' || {
		rm -rf "$VENV"
		die "duckdb==$VERSION installed but does not import"
	}
	touch "$VENV/.installed"
	echo "$VENV/bin/python3"
}

case "${1:-install}" in
install) install ;;
*) die "unknown command $1 (install)" ;;
esac
