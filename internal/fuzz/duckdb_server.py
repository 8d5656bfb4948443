# The DuckDB side of the fuzzer's differential oracle (duckdb.go): one
# long-lived process, so each query costs a DuckDB call, not a Python
# start. Line protocol on stdin/stdout, one JSON object a line:
#
#   request:  {"sql": "..."}
#   response: {"rows": [[cell, ...], ...]} or {"error": "..."}
#
# A cell is null, a boolean, {"f": repr} for a double (repr keeps NaN,
# inf and -0.0, which JSON cannot), or a string: integers, dates and
# timestamps are already printed the way Sluice prints them, so the Go
# side renders both engines' rows with one renderer.
import datetime
import decimal
import json
import sys

import duckdb

con = duckdb.connect()
# Timestamps are Spark's TIMESTAMP (an instant shown in the session zone,
# UTC here); the views cast TIMESTAMPTZ to naive TIMESTAMP under UTC.
con.execute("SET TimeZone = 'UTC'")
# One thread: the machine is shared and the tables are tiny.
con.execute("SET threads = 1")
# DuckDB is the reference here, so it runs unoptimized where that
# matters: a Parquet file whose DOUBLE statistics leave NaN out (as the
# Parquet spec asks writers to) has its row groups pruned by
# `c = CAST('NaN' AS DOUBLE)` and `c > 5` as if it held no NaN, a wrong
# answer of DuckDB's (2.0.1) that Spark and Sluice do not give.
con.execute("SET disabled_optimizers = 'filter_pushdown,statistics_propagation'")


def cell(v):
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, datetime.datetime):
        s = v.strftime("%Y-%m-%d %H:%M:%S")
        if v.microsecond:
            s += ("." + "%06d" % v.microsecond).rstrip("0")
        return s
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    return str(v)


def main():
    for line in sys.stdin:
        try:
            req = json.loads(line)
            rel = con.execute(req["sql"])
            rows = rel.fetchall() if rel.description else []
            out = {"rows": [[cell(v) for v in row] for row in rows]}
        except Exception as e:  # every DuckDB error is an answer
            out = {"error": type(e).__name__ + ": " + str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


main()
