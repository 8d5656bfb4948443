#!/usr/bin/env bash
# GROUP BY over N distinct string keys, Sluice and DuckDB in turn: wall
# time, user+sys CPU time and peak RSS of each whole process (GNU time -v),
# RUNS times each (default 3), then both engines' answers compared. The
# rows are generated in the query itself (six or seven CROSS JOINed
# explodes of 0..9; range() is not used: Sluice builds it as one
# sequence() array, capped at 2^20 values), so the figure is the
# aggregation's, not a file decoder's. LIMIT is Sluice's --memory-limit
# and DuckDB's memory_limit, or none for neither.
#
#   bench/groupby.sh 10000000 256MB
#   bench/groupby.sh 10000000 none
#   RUNS=1 bench/groupby.sh 1000000 256MB
set -euo pipefail
keys=${1:-1000000}
limit=${2:-256MB}
runs=${RUNS:-3}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/sluice" ./cmd/sluice
py=$(scripts/duckdb.sh install)

case $keys in
1000000) n=6 ;;
10000000) n=7 ;;
*) echo "keys: 1000000 or 10000000" >&2; exit 2 ;;
esac
# query GEN: the same text for both engines but the generator.
query() {
	local d="(SELECT $1(array(0,1,2,3,4,5,6,7,8,9)) AS" digits=(a b c d e f g)
	local from="$d a) t0" e="a" i
	for ((i = 1; i < n; i++)); do
		from="$from CROSS JOIN $d ${digits[$i]}) t$i"
		e="($e) * 10 + ${digits[$i]}"
	done
	# count and checksums of the groups: equal answers, not just equal counts.
	echo "SELECT count(*) AS groups, sum(n) AS rows_, sum(length(k)) AS key_bytes, min(k) AS lo, max(k) AS hi FROM (SELECT concat('key-', CAST($e AS STRING)) AS k, count(*) AS n FROM $from GROUP BY 1) t"
}
sluice_sql=$(query explode)
duck_sql=$(query unnest | sed 's/array(\([^)]*\))/[\1]/g')
cat >"$work/duck.py" <<'PY'
import sys, time, duckdb
sql, limit, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
con = duckdb.connect()
if limit != "none":
    con.execute(f"SET memory_limit='{limit}'")
con.execute(f"SET temp_directory='{tmp}'")
t = time.time()
row = con.execute(sql).fetchone()
print("answer:", ",".join(str(v) for v in row))
print("in-process: %.2f s" % (time.time() - t), file=sys.stderr)
PY

measure() { # name cmd...: one run, its figures on one line
	local name=$1 out
	shift
	out=$(/usr/bin/time -v "$@" 2>&1) || { echo "$out" >&2; exit 1; }
	local user sys wall rss answer inproc
	user=$(grep 'User time' <<<"$out" | awk '{print $NF}')
	sys=$(grep 'System time' <<<"$out" | awk '{print $NF}')
	wall=$(grep 'Elapsed (wall' <<<"$out" | awk '{print $NF}')
	rss=$(grep 'Maximum resident' <<<"$out" | awk '{print $NF}')
	inproc=$(grep 'in-process' <<<"$out" | awk '{print $2}' || true)
	answer=$(grep -E '^answer:' <<<"$out" | cut -d' ' -f2)
	printf '%-7s wall %s  cpu %.2f s  rss %d kB%s  load %s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$rss" \
		"${inproc:+  in-process $inproc s}" "$(cut -d' ' -f1 /proc/loadavg)"
	echo "$answer" >"$work/$name.answer"
}

echo "keys=$keys memory_limit=$limit runs=$runs"
for ((r = 0; r < runs; r++)); do
	data=$(mktemp -d "$work/data.XXXX")
	# Sluice prints a table; its one row becomes the answer line.
	measure sluice bash -c '"$1" sql --data-dir "$2" --memory-limit "$3" --format csv -e "$4" | tail -1 | sed "s/^/answer: /"' _ "$work/sluice" "$data" "$limit" "$sluice_sql"
	rm -rf "$data"
	data=$(mktemp -d "$work/data.XXXX")
	measure duckdb "$py" "$work/duck.py" "$duck_sql" "$limit" "$data"
	rm -rf "$data"
done
echo "sluice: $(cat "$work/sluice.answer")"
echo "duckdb: $(cat "$work/duckdb.answer")"
if [ "$(cat "$work/sluice.answer")" != "$(cat "$work/duckdb.answer")" ]; then
	echo "answers differ" >&2
	exit 1
fi
echo "answers equal"
