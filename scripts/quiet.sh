# Sourced by the install scripts: `quiet NAME cmd args...` runs an
# installer (apt-get, mvn, pip, go install) with its whole output in
# $CACHE/logs/NAME.log, so a test run prints one line per install, and
# shows the log's last lines only when the installer fails.
if [ -z "${CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		CACHE="${SLUICE_CACHE_DIR:-/var/cache/sluice}"
	else
		CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}"
	fi
fi

quiet() {
	local name="$1" log
	shift
	mkdir -p "$CACHE/logs"
	log="$CACHE/logs/$name.log"
	local rc=0
	"$@" >"$log" 2>&1 </dev/null || rc=$?
	if [ "$rc" = 0 ]; then
		return 0
	fi
	echo "--- last lines of $log:" >&2
	tail -n 30 "$log" >&2
	return "$rc"
}
