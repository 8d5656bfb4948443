#!/usr/bin/env bash
# Debian's headless-capable Chromium, for the browser test of the web
# console of `sluice serve` (internal/server/console_test.go, driven by
# chromedp). Prints the path of the chromium command.
#
#   scripts/chromium.sh   # once; apt-get install -y chromium if it is missing
set -euo pipefail

die() {
	echo "chromium.sh: $*" >&2
	exit 1
}

for c in chromium chromium-browser; do
	if p="$(command -v "$c")"; then
		echo "$p"
		exit 0
	fi
done
command -v apt-get >/dev/null || die "chromium is not installed and apt-get is not available"
[ "$(id -u)" = 0 ] || die "chromium is not installed; run as root (or apt-get install chromium)"
echo "installing Debian's chromium (once)..." >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine's package lists may be empty or old: update once, then
# install; a dpkg lock held by another install is waited for.
. "$(dirname "$0")/quiet.sh"
quiet chromium-apt-update apt-get -o DPkg::Lock::Timeout=600 update -qq || die "apt-get update failed"
quiet chromium-apt-install apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium fonts-dejavu-core ||
	die "apt-get install chromium failed"
command -v chromium || die "chromium is still not on PATH after apt-get install"
