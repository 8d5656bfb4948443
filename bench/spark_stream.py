"""The two stream jobs of issue 14 in Spark Structured Streaming and in
Sluice, on the same NDJSON files, whole process against whole process.

Called by bench/spark.sh (which installs PySpark and builds sluice).
Job "window": 1-minute tumbling count and sum(bytes) by status, 1-minute
watermark, append mode, into JSON. Job "filter": status >= 400, five
columns, into JSON. Both read every file once (available-now trigger, 20
files per trigger). Reported: wall seconds and user+sys CPU seconds of
each process (Spark's JVM included), and the output's row count and
sum(n) / sum(bytes), which must agree between the engines.
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SPARK_JOB = r"""
import sys
from pyspark.sql import SparkSession, functions as F
job, data, out, ckpt, per = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
spark = (SparkSession.builder.master("local[2]").appName("sluice-bench-" + job)
         .config("spark.sql.shuffle.partitions", "2").config("spark.ui.enabled", "false")
         .config("spark.driver.memory", "2g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
schema = ("`@timestamp` TIMESTAMP, clientip STRING, method STRING, path STRING, status INT, "
          "bytes BIGINT, latency_ms DOUBLE")
src = (spark.readStream.schema(schema).option("maxFilesPerTrigger", per).json(data)
       .withColumnRenamed("@timestamp", "ts"))
if job == "window":
    q = (src.withWatermark("ts", "1 minute")
         .groupBy(F.window("ts", "1 minute"), "status")
         .agg(F.count(F.lit(1)).alias("n"), F.sum("bytes").alias("b"))
         .select(F.col("window.start").alias("w"), "status", "n", "b"))
else:
    q = src.where("status >= 400").select(F.col("ts").alias("@timestamp"), "clientip", "path", "status", "bytes")
w = (q.writeStream.format("json").outputMode("append").option("path", out)
     .option("checkpointLocation", ckpt).trigger(availableNow=True).start())
w.awaitTermination()
# The JVM is pyspark's child, not waited for by ours: its CPU is read
# from /proc just before it stops (utime + stime, in clock ticks).
import os
pid = spark.sparkContext._gateway.proc.pid
f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
print("JVM_CPU_NS %d" % ((int(f[11]) + int(f[12])) * 1e9 / os.sysconf("SC_CLK_TCK")))
spark.stop()
"""

SPARK_CHECK = r"""
import sys
from pyspark.sql import SparkSession
job, out = sys.argv[1], sys.argv[2]
spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
df = spark.read.json(out)
col = "n" if job == "window" else "bytes"
r = df.selectExpr("count(*)", "sum(%s)" % col).collect()[0]
print("%d %d" % (r[0], r[1] or 0))
"""

COLUMNS = ("`@timestamp` TIMESTAMP, clientip STRING, method STRING, path STRING, status INT, "
           "bytes BIGINT, latency_ms DOUBLE")


def sluice_sql(job, data, out, per):
    src = ("CREATE TABLE src (%s, WATERMARK FOR `@timestamp` AS `@timestamp` - INTERVAL 1 MINUTE) "
           "USING json LOCATION '%s/'" % (COLUMNS, data))
    opts = "WITH (name = '%s', trigger = 'available_now', max_files_per_trigger = %d)" % (job, per)
    if job == "window":
        sink = "CREATE TABLE out (w TIMESTAMP, status INT, n BIGINT, b BIGINT) USING json LOCATION '%s/'" % out
        ins = ("INSERT STREAM INTO out SELECT TUMBLE(`@timestamp`, '1 minute').start, status, count(*), sum(bytes) "
               "FROM src GROUP BY TUMBLE(`@timestamp`, '1 minute'), status " + opts)
    else:
        sink = ("CREATE TABLE out (`@timestamp` TIMESTAMP, clientip STRING, path STRING, status INT, bytes BIGINT) "
                "USING json LOCATION '%s/'" % out)
        ins = ("INSERT STREAM INTO out SELECT `@timestamp`, clientip, path, status, bytes FROM src "
               "WHERE status >= 400 " + opts)
    return "; ".join([src, sink, ins])


def sluice_check(binary, job, out, datadir):
    col = "n" if job == "window" else "bytes"
    cols = "w TIMESTAMP, status INT, n BIGINT, b BIGINT" if job == "window" else \
        "`@timestamp` TIMESTAMP, clientip STRING, path STRING, status INT, bytes BIGINT"
    sql = ("CREATE TABLE chk (%s) USING json LOCATION '%s/'; SELECT count(*), sum(%s) FROM chk" % (cols, out, col))
    p = subprocess.run([binary, "sql", "--data-dir", datadir, "--format", "csv", "-e", sql],
                       capture_output=True, text=True, check=True)
    row = p.stdout.strip().splitlines()[-1].split(",")
    return "%d %d" % (int(row[0]), int(row[1] or 0))


def timed(cmd):
    """Runs cmd; returns (wall seconds, cpu seconds): the process's and
    its waited-for children's user+sys, plus the JVM's own figure when
    the Spark job prints one."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (cmd[0], (p.stderr or p.stdout).strip()[-800:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in p.stdout.splitlines():
        if line.startswith("JVM_CPU_NS "):
            cpu += int(line.split()[1]) / 1e9
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--sluice", required=True)
    ap.add_argument("--jobs", default="window,filter")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--per-trigger", type=int, default=20)
    ap.add_argument("--sluice-only", action="store_true",
                    help="time Sluice alone (any binary: compare builds without Spark's minutes)")
    args = ap.parse_args()
    if args.sluice_only:
        for job in args.jobs.split(","):
            for _ in range(args.repeat):
                work = tempfile.mkdtemp(prefix="sluice-spark-")
                try:
                    out = os.path.join(work, "sluice-out")
                    w, c = timed([args.sluice, "sql", "--data-dir", os.path.join(work, "sluice-data"), "-e",
                                  sluice_sql(job, args.data, out, args.per_trigger)])
                    ans = sluice_check(args.sluice, job, out, os.path.join(work, "chk-data"))
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                print("%-7s sluice %s wall %.2f s cpu %.2f s answer %s" % (job, args.sluice, w, c, ans))
                sys.stdout.flush()
        return
    print("%-7s %9s %9s %9s %9s %7s %7s  %s" % ("job", "sluice s", "cpu s", "spark s", "cpu s", "wall x", "cpu x", "answers"))
    for job in args.jobs.split(","):
        best_s = best_k = None
        for _ in range(args.repeat):
            work = tempfile.mkdtemp(prefix="sluice-spark-")
            try:
                out_s, out_k = os.path.join(work, "sluice-out"), os.path.join(work, "spark-out")
                dd = os.path.join(work, "sluice-data")
                s = timed([args.sluice, "sql", "--data-dir", dd, "-e", sluice_sql(job, args.data, out_s, args.per_trigger)])
                k = timed([sys.executable, "-c", SPARK_JOB, job, args.data, out_k, os.path.join(work, "ckpt"),
                           str(args.per_trigger)])
                ans_s = sluice_check(args.sluice, job, out_s, os.path.join(work, "chk-data"))
                ans_k = subprocess.run([sys.executable, "-c", SPARK_CHECK, job, out_k], capture_output=True,
                                       text=True, check=True).stdout.strip().splitlines()[-1]
            finally:
                shutil.rmtree(work, ignore_errors=True)
            best_s = (s, ans_s) if best_s is None or s[0] < best_s[0][0] else best_s
            best_k = (k, ans_k) if best_k is None or k[0] < best_k[0][0] else best_k
        (sw, sc), ans_s = best_s
        (kw, kc), ans_k = best_k
        verdict = "equal (rows, sum: %s)" % ans_s if ans_s == ans_k else "DIFFERENT: sluice %s, spark %s" % (ans_s, ans_k)
        print("%-7s %9.2f %9.2f %9.2f %9.2f %6.2fx %6.2fx  %s" % (job, sw, sc, kw, kc, kw / sw, kc / sc, verdict))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
