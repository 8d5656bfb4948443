#!/usr/bin/env bash
# A single OpenSearch node for the sink tests and benchmarks.
#
#   scripts/opensearch.sh install            # fetch once; prints the install dir
#   scripts/opensearch.sh start DIR [PORT]   # run a node over DIR; prints its URL
#   scripts/opensearch.sh stop DIR           # stop the node running over DIR
#   scripts/opensearch.sh status DIR         # prints the URL when the node answers
#
# The node is the integ-test distribution from Maven Central (fetched with
# mvn, the ordinary client for it), run on the machine's Java 17 with a
# 512 MB heap, single-node discovery, security off, HTTP on a loopback
# port. DIR holds its config, data and logs, so stop then start over the
# same DIR and PORT brings back the same node with the same indices.
#
# OPENSEARCH_EXTRA_SETTINGS, lines of YAML, is appended to the node's
# opensearch.yml (static settings a test needs, such as a tiny write
# queue).
#
# A node of a cluster instead: OPENSEARCH_CLUSTER_NAME, OPENSEARCH_NODE_NAME,
# OPENSEARCH_TRANSPORT_PORT, OPENSEARCH_CLUSTER_SEEDS (the nodes' transport
# addresses, comma-separated) and OPENSEARCH_CLUSTER_MANAGERS (the first
# cluster managers' node names). Start the nodes at once: each start waits
# until the cluster has formed.
#
# OpenSearch refuses to run as root; when we are root (CI is), the node runs
# as nobody, so the install lives outside /root and DIR is handed to nobody.
set -euo pipefail

VERSION="${OPENSEARCH_VERSION:-2.19.6}"
ARTIFACT="org.opensearch.distribution.integ-test-zip:opensearch:${VERSION}:zip"
if [ "$(id -u)" = 0 ]; then
	CACHE="${SLUICE_CACHE_DIR:-/var/cache/sluice}"
else
	CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}"
fi
HOME_DIR="$CACHE/opensearch/opensearch-$VERSION"
. "$(dirname "$0")/quiet.sh"

die() {
	echo "opensearch.sh: $*" >&2
	exit 1
}

install() {
	if [ -x "$HOME_DIR/bin/opensearch" ]; then
		echo "$HOME_DIR"
		return
	fi
	command -v java >/dev/null || die "java not found (OpenSearch $VERSION needs Java 17+)"
	command -v unzip >/dev/null || die "unzip not found"
	mkdir -p "$CACHE/opensearch"
	echo "installing OpenSearch $VERSION into $CACHE/opensearch (once)..." >&2
	# The fetch runs in a subshell whose EXIT trap removes its temp dir on
	# success and on die alike. (A RETURN trap set here would outlive this
	# function and fire again when start returns, where $tmp is unset.)
	(
		tmp="$(mktemp -d "$CACHE/opensearch/fetch.XXXXXX")"
		trap 'rm -rf "$tmp"' EXIT
		if command -v mvn >/dev/null; then
			quiet opensearch-mvn mvn -B -q -Dstyle.color=never dependency:copy -Dartifact="$ARTIFACT" -DoutputDirectory="$tmp" ||
				die "mvn could not fetch $ARTIFACT"
		else
			die "mvn not found: cannot fetch $ARTIFACT"
		fi
		unzip -q "$tmp/opensearch-$VERSION.zip" -d "$tmp/x"
		rm -rf "$HOME_DIR"
		mv "$tmp/x/opensearch-$VERSION" "$HOME_DIR"
		chmod -R a+rX "$CACHE/opensearch"
	)
	echo "$HOME_DIR"
}

# as_node runs a command as the user the node runs as.
as_node() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"$@"
	fi
}

# java_home is the JDK the node runs on: the integ-test zip bundles none.
java_home() {
	if [ -n "${JAVA_HOME:-}" ]; then
		echo "$JAVA_HOME"
	else
		dirname "$(dirname "$(readlink -f "$(command -v java)")")"
	fi
}

url_of() { echo "http://127.0.0.1:$(cat "$1/port")"; }

healthy() {
	curl -fsS --max-time 2 "$1/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1
}

start() {
	local dir="${1:?usage: start DIR [PORT]}" port="${2:-}"
	install >/dev/null
	mkdir -p "$dir/config" "$dir/data" "$dir/logs" "$dir/tmp"
	if [ -z "$port" ]; then
		port="$(cat "$dir/port" 2>/dev/null || true)"
	fi
	if [ -z "$port" ]; then
		port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
			echo $((20000 + RANDOM % 20000)))"
	fi
	echo "$port" >"$dir/port"
	if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
		die "a node already runs over $dir (pid $(cat "$dir/pid"))"
	fi
	cp "$HOME_DIR/config/log4j2.properties" "$dir/config/"
	# jvm.options without the heap (it comes from OPENSEARCH_JAVA_OPTS), GC
	# logs and heap dumps (relative paths the node's user may not write).
	grep -v -e '^-Xm[sx]' -e 'gc.log' -e 'HeapDump' -e 'ErrorFile' \
		"$HOME_DIR/config/jvm.options" >"$dir/config/jvm.options"
	echo "-XX:ErrorFile=$dir/logs/hs_err_pid%p.log" >>"$dir/config/jvm.options"
	mkdir -p "$dir/config/jvm.options.d"
	local discovery="discovery.type: single-node" transport=0 cluster=sluice-test node=sluice-test-node
	if [ -n "${OPENSEARCH_CLUSTER_SEEDS:-}" ]; then
		# One node of a cluster: its name, transport port, the others'
		# transport addresses and the first cluster managers' names.
		cluster="${OPENSEARCH_CLUSTER_NAME:?}" node="${OPENSEARCH_NODE_NAME:?}" transport="${OPENSEARCH_TRANSPORT_PORT:?}"
		discovery="discovery.seed_hosts: [${OPENSEARCH_CLUSTER_SEEDS}]
cluster.initial_cluster_manager_nodes: [${OPENSEARCH_CLUSTER_MANAGERS:?}]"
	fi
	cat >"$dir/config/opensearch.yml" <<EOF
cluster.name: $cluster
node.name: $node
$discovery
network.host: 127.0.0.1
http.port: $port
transport.port: $transport
path.data: $dir/data
path.logs: $dir/logs
action.auto_create_index: true
cluster.routing.allocation.disk.threshold_enabled: false
EOF
	if [ -n "${OPENSEARCH_EXTRA_SETTINGS:-}" ]; then
		printf '%s\n' "$OPENSEARCH_EXTRA_SETTINGS" >>"$dir/config/opensearch.yml"
	fi
	if [ "$(id -u)" = 0 ]; then
		chown -R 65534:65534 "$dir"
		chmod a+rx "$dir"
	fi
	(
		cd "$dir"
		OPENSEARCH_JAVA_HOME="${OPENSEARCH_JAVA_HOME:-$(java_home)}" \
			OPENSEARCH_PATH_CONF="$dir/config" OPENSEARCH_TMPDIR="$dir/tmp" \
			OPENSEARCH_JAVA_OPTS="-Xms512m -Xmx512m ${OPENSEARCH_EXTRA_JAVA_OPTS:-}" \
			as_node "$HOME_DIR/bin/opensearch" -d -p "$dir/pid" >"$dir/logs/stdout.log" 2>&1 </dev/null
	) || die "the node did not start: $(tail -20 "$dir/logs/stdout.log" 2>/dev/null)"
	local url i
	url="$(url_of "$dir")"
	for i in $(seq 1 240); do
		if healthy "$url"; then
			echo "$url"
			return
		fi
		if [ -f "$dir/pid" ] && ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
			die "the node exited: $(tail -20 "$dir/logs/$cluster.log" 2>/dev/null)"
		fi
		sleep 0.5
	done
	die "the node did not become healthy within 120 s (logs in $dir/logs)"
}

stop() {
	local dir="${1:?usage: stop DIR}" pid i
	[ -f "$dir/pid" ] || return 0
	pid="$(cat "$dir/pid")"
	kill "$pid" 2>/dev/null || true
	for i in $(seq 1 120); do
		kill -0 "$pid" 2>/dev/null || {
			rm -f "$dir/pid"
			forget_perfdata "$pid"
			return 0
		}
		sleep 0.25
	done
	kill -9 "$pid" 2>/dev/null || true
	rm -f "$dir/pid"
	forget_perfdata "$pid"
}

# forget_perfdata removes the node's JVM perf data, which the launcher's
# own JVMs write whatever the options (bin/opensearch-env drops
# JAVA_TOOL_OPTIONS), and /tmp/hsperfdata_nobody once it is empty, so a
# test run leaves no folder behind.
forget_perfdata() {
	[ "$(id -u)" = 0 ] || return 0
	rm -f "/tmp/hsperfdata_nobody/$1" 2>/dev/null || true
	rmdir /tmp/hsperfdata_nobody 2>/dev/null || true
}

status() {
	local dir="${1:?usage: status DIR}" url
	url="$(url_of "$dir")"
	healthy "$url" && echo "$url"
}

case "${1:-install}" in
install) install ;;
start) start "${@:2}" ;;
stop) stop "${@:2}" ;;
status) status "${@:2}" ;;
*) die "unknown command $1 (install, start, stop, status)" ;;
esac
