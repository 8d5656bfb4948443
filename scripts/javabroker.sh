#!/usr/bin/env bash
# Installs a message broker that runs on the JVM from Maven Central jars,
# for the queue tests of internal/queue (discovery 'notifications' over
# SQS and Kafka). Prints the folder of jars (the broker's classpath).
#
#   scripts/javabroker.sh elasticmq    # ElasticMQ, an SQS-compatible server
#   scripts/javabroker.sh kafka        # an Apache Kafka broker (KRaft mode)
#
# The jars and their dependencies are fetched once with mvn (the ordinary
# client for Maven Central) into the cache; the tests start and stop the
# broker themselves (internal/testutil/javabroker), on loopback ports.
set -euo pipefail

ELASTICMQ_VERSION="${ELASTICMQ_VERSION:-1.7.1}"
KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
if [ "$(id -u)" = 0 ]; then
	CACHE="${SLUICE_CACHE_DIR:-/var/cache/sluice}"
else
	CACHE="${SLUICE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sluice}"
fi
. "$(dirname "$0")/quiet.sh"

die() {
	echo "javabroker.sh: $*" >&2
	exit 1
}

case "${1:-}" in
elasticmq) dep="org.elasticmq:elasticmq-server_2.13:$ELASTICMQ_VERSION"; dir="$CACHE/elasticmq-$ELASTICMQ_VERSION" ;;
kafka) dep="org.apache.kafka:kafka_2.13:$KAFKA_VERSION"; dir="$CACHE/kafka-$KAFKA_VERSION" ;;
*) die "usage: $0 elasticmq|kafka" ;;
esac

if [ -f "$dir/lib/.complete" ]; then
	echo "$dir/lib"
	exit 0
fi
command -v java >/dev/null || die "java not found"
command -v mvn >/dev/null || die "mvn not found: cannot fetch $dep"
mkdir -p "$CACHE"
echo "installing $dep into $dir (once)..." >&2
(
	tmp="$(mktemp -d "$CACHE/javabroker.XXXXXX")"
	trap 'rm -rf "$tmp"' EXIT
	IFS=: read -r g a v <<<"$dep"
	cat >"$tmp/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>sluice</groupId><artifactId>broker</artifactId><version>1</version>
<dependencies>
<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>
<dependency><groupId>org.slf4j</groupId><artifactId>slf4j-nop</artifactId><version>1.7.36</version></dependency>
</dependencies></project>
POM
	(cd "$tmp" && quiet "javabroker-$a-mvn" mvn -B -q -Dstyle.color=never dependency:copy-dependencies -DoutputDirectory="$tmp/lib") || die "mvn could not fetch $dep"
	touch "$tmp/lib/.complete"
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/lib" "$dir/lib"
	chmod -R a+rX "$dir"
)
echo "$dir/lib"
