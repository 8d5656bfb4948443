#!/usr/bin/env bash
# GROUP BY over N distinct string keys under a memory limit: wall time and
# peak RSS of the sluice process (GNU time -v). The rows are generated in
# the query itself (six or seven CROSS JOINed explodes of 0..9), so the
# figure is the aggregation's, not a file decoder's.
#
#   bench/groupby.sh 1000000 256MB
#   bench/groupby.sh 10000000 256MB
#   bench/groupby.sh 1000000 none     # the in-memory run, for comparison
set -euo pipefail
keys=${1:-1000000}
limit=${2:-256MB}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/sluice
go build -o "$bin" ./cmd/sluice
data=$(mktemp -d)
trap 'rm -rf "$data" "$(dirname "$bin")"' EXIT

d='(SELECT explode(array(0,1,2,3,4,5,6,7,8,9)) AS'
digits=(a b c d e f g)
case $keys in
1000000) n=6 ;;
10000000) n=7 ;;
*) echo "keys: 1000000 or 10000000" >&2; exit 2 ;;
esac
from="$d a) t0"
expr_="a"
for ((i = 1; i < n; i++)); do
	from="$from CROSS JOIN $d ${digits[$i]}) t$i"
	expr_="($expr_) * 10 + ${digits[$i]}"
done
sql="SELECT count(*), sum(n) FROM (SELECT concat('key-', CAST($expr_ AS STRING)) AS k, count(*) AS n FROM $from GROUP BY 1) t"
echo "keys=$keys memory_limit=$limit"
/usr/bin/time -v "$bin" sql --data-dir "$data" --memory-limit "$limit" -e "$sql" 2>&1 |
	grep -E '^\||Elapsed \(wall|Maximum resident|error'
