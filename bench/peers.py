"""Q1-Q4 with Sluice and DuckDB, whole process against whole process.

Called by bench/peers.sh (which installs DuckDB and builds sluice). Each
run is a fresh process: Sluice's CLI with the table created in the same
invocation, DuckDB's Python module over the same files with the same
declared columns. The best wall time of --repeat runs is reported, with
user+sys CPU seconds, and the answers are compared (rows sorted, numbers
to 1e-9 relative). Q3's p99 is approx_percentile in Sluice and DuckDB's
exact quantile_disc, compared to 1%: the count of groups off says how far
Sluice's sketch is from exact (Spark is exact up to 10,000 values).
"""

import argparse
import csv
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

NESTED = ("`@timestamp` TIMESTAMP, clientip STRING, method STRING, path STRING, status INT, "
          "bytes BIGINT, latency_ms DOUBLE, user_agent STRING, geo STRUCT<country: STRING, city: STRING>, "
          "tags ARRAY<STRING>")

DUCK_COLUMNS = {
    "@timestamp": "TIMESTAMP", "clientip": "VARCHAR", "method": "VARCHAR", "path": "VARCHAR",
    "status": "INTEGER", "bytes": "BIGINT", "latency_ms": "DOUBLE", "user_agent": "VARCHAR",
    "geo": "STRUCT(country VARCHAR, city VARCHAR)", "tags": "VARCHAR[]",
}

QUERIES = {
    "Q1": ("SELECT count(*) FROM {t} WHERE status >= 500",
           "SELECT count(*) FROM t WHERE status >= 500"),
    "Q2": ("SELECT status, count(*), avg(bytes) FROM {t} GROUP BY status",
           "SELECT status, count(*), avg(bytes) FROM t GROUP BY status"),
    "Q3": ("SELECT date_trunc('hour', `@timestamp`) AS h, path, count(*), avg(latency_ms), "
           "approx_percentile(latency_ms, 0.99) FROM {t} GROUP BY 1, 2",
           "SELECT date_trunc('hour', \"@timestamp\") AS h, path, count(*), avg(latency_ms), "
           "quantile_disc(latency_ms, 0.99) FROM t GROUP BY 1, 2"),
    "Q4": ("SELECT clientip, sum(bytes) AS b FROM {t} GROUP BY clientip ORDER BY b DESC LIMIT 10",
           "SELECT clientip, sum(bytes) AS b FROM t GROUP BY clientip ORDER BY b DESC LIMIT 10"),
    # Run only with --queries: a correlated scalar subquery (bench's Q5) and
    # a window function over every row (row_number per client, 3.5M rows).
    "Q5": ("SELECT count(*) FROM {t} l WHERE latency_ms > (SELECT avg(latency_ms) FROM {t} i WHERE i.path = l.path)",
           "SELECT count(*) FROM t l WHERE latency_ms > (SELECT avg(latency_ms) FROM t i WHERE i.path = l.path)"),
    "W1": ("SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY clientip ORDER BY `@timestamp`, path) AS rn "
           "FROM {t}) x WHERE rn <= 3",
           "SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY clientip ORDER BY \"@timestamp\", path) AS rn "
           "FROM t) x WHERE rn <= 3"),
}

DEFAULT_QUERIES = "Q1,Q2,Q3,Q4"

DUCK_SCRIPT = r"""
import csv, duckdb, json, sys
layout, data, query = sys.argv[1], sys.argv[2], sys.argv[3]
cols = json.loads(sys.argv[4])
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
if layout == "ndjson":
    con.execute("CREATE VIEW t AS SELECT * FROM read_json('%s/ndjson/*.json', format='newline_delimited', columns={%s})" %
                (data, ", ".join("'%s': '%s'" % (k, v) for k, v in cols.items())))
else:
    con.execute("CREATE VIEW t AS SELECT * FROM read_parquet('%s/parquet/*.parquet')" % data)
w = csv.writer(sys.stdout)
for row in con.execute(query).fetchall():
    w.writerow(["" if v is None else v for v in row])
"""


def timed(cmd):
    """Runs cmd; returns (wall seconds, cpu seconds, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (cmd[0], p.stderr.strip()[-500:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout


def sluice_cmd(binary, data, layout, query, datadir):
    loc = os.path.join(data, layout) + "/"
    using = "json" if layout == "ndjson" else "parquet"
    create = "CREATE TABLE IF NOT EXISTS t_%s (%s) USING %s LOCATION '%s'" % (layout, NESTED, using, loc)
    sql = create + "; " + query.replace("{t}", "t_" + layout)
    return [binary, "sql", "--data-dir", datadir, "--format", "csv", "-e", sql]


def norm_value(v):
    v = v.strip()
    try:
        return float(v)
    except ValueError:
        return v.replace("T", " ").rstrip("Z").removesuffix("+00:00").removesuffix(".000")


def rows_of(text, skip_header):
    rows = list(csv.reader(io.StringIO(text)))
    if skip_header and rows:
        rows = rows[1:]
    return sorted(([norm_value(v) for v in r] for r in rows if r), key=lambda r: [str(x) for x in r])


def same(x, y, rel):
    if isinstance(x, float) and isinstance(y, float):
        return abs(x - y) <= rel * max(abs(x), abs(y), 1e-12)
    return x == y


def agree(qid, a, b):
    """Rows sorted by their text; numbers equal to 1e-9 relative (sums in
    another order round differently), Q3's approximate p99 to 1%."""
    if len(a) != len(b):
        return "different row counts (%d, %d)" % (len(a), len(b))
    far = 0
    for x, y in zip(a, b):
        exact = x[:4] if qid == "Q3" else x
        if len(x) != len(y) or not all(same(p, q, 1e-9) for p, q in zip(exact, y)):
            return "DIFFERENT: sluice %s, duckdb %s" % (x, y)
        if qid == "Q3" and not same(x[4], y[4], 0.01):
            far += 1
    if far:
        return "equal but p99 off by >1%% in %d of %d groups" % (far, len(a))
    return "equal"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--layouts", default="all")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--queries", default=DEFAULT_QUERIES)
    args = ap.parse_args()
    layouts = ["ndjson", "parquet"] if args.layouts == "all" else args.layouts.split(",")
    print("%-8s %-3s %10s %10s %10s %10s %7s  %s" % ("layout", "q", "sluice s", "cpu s", "duckdb s", "cpu s", "ratio", "answers"))
    for layout in layouts:
        with tempfile.TemporaryDirectory() as datadir:
            for qid in args.queries.split(","):
                sq, dq = QUERIES[qid]
                best_s = best_d = None
                for _ in range(args.repeat):
                    s = timed(sluice_cmd(args.sluice, args.data, layout, sq, datadir))
                    d = timed([sys.executable, "-c", DUCK_SCRIPT, layout, args.data, dq, json.dumps(DUCK_COLUMNS)])
                    best_s = s if best_s is None or s[0] < best_s[0] else best_s
                    best_d = d if best_d is None or d[0] < best_d[0] else best_d
                verdict = agree(qid, rows_of(best_s[2], True), rows_of(best_d[2], False))
                print("%-8s %-3s %10.2f %10.2f %10.2f %10.2f %6.2fx  %s" % (
                    layout, qid, best_s[0], best_s[1], best_d[0], best_d[1], best_d[0] / best_s[0], verdict))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
