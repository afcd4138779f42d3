#!/usr/bin/env python3
"""memhunt's fleet scan on Spark: each partition of the file list runs `memhunt scan --format ndjson` on
its own files (mapPartitions calling the binary through subprocess), and Spark aggregates the per-record
lines into the per-app figures `memhunt scan --format json` prints:

  records              the records the app appears in
  ranks                how often it ranked 1, 2-5, 6-10, over 10 by peak (JetsamEvents)
  peakMB               count, p50, p90, p99, max of its peaks
  suspendedResidentMB  the same of its footprint in the records where it was suspended
  reasons              kill reasons (a crash report's kind) with counts

Percentiles are exact and nearest-rank, as memhunt's: the value at 1-based position ceil(p/100 * n) of
the sorted values (`sort_array(collect_list(...))` then `element_at`), not `percentile_approx`. Exact is
fine for fleets whose per-app value lists fit an executor (10,000 records are 80 KB per app); an
approximate percentile would not match memhunt's figures. memhunt's ndjson already rounds MB to one
decimal; nearest-rank picks an element, so rounding before or after gives the same figure.

    Benchmarks/spark/scan_job.py --memhunt .build/debug/memhunt [--partitions 4] [--master local[2]] \
        (DIR | FILE | @LIST)...

A DIR is walked (hidden names skipped), @LIST is a file of paths one per line. Prints JSON
{"apps": {name: figures}, "records": N} to stdout. Needs PySpark (`pip install pyspark`) and Java 17.
"""
import argparse
import json
import os
import re
import subprocess
import sys

# Files per memhunt process within a partition: keeps command lines short of ARG_MAX.
CHUNK = 500


URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def expand(operands):
    files = []
    for operand in operands:
        # An `s3a://` or `hdfs://` operand was passed on as a path, memhunt rejected it on a stderr that was
        # thrown away, and the job's figures left it out without a word: such operands stop the job now.
        if URI.match(operand) and not operand.startswith(("http://", "https://")):
            print("scan_job.py: %s: this job reads local paths and http(s) URLs only; copy the files from that "
                  "file system first" % operand, file=sys.stderr)
            sys.exit(2)
        if operand.startswith("@"):
            with open(operand[1:]) as f:
                files += [line.strip() for line in f if line.strip()]
        elif os.path.isdir(operand):
            for folder, dirs, names in os.walk(operand):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                files += [os.path.join(folder, n) for n in sorted(names) if not n.startswith(".")]
        else:
            files.append(operand)
    return files


def number(value):
    """JSON writes 725.0 as 725: a float for Spark's DoubleType."""
    return None if value is None else float(value)


def scan_partition(memhunt):
    """The mapPartitions function: memhunt on this partition's files, one app row per record's app."""

    def run(paths):
        paths = list(paths)
        for start in range(0, len(paths), CHUNK):
            chunk = paths[start:start + CHUNK]
            done = subprocess.run([memhunt, "scan", "--format", "ndjson"] + chunk, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
            if done.returncode != 0:
                raise RuntimeError("memhunt scan exited %d" % done.returncode)
            for line in done.stdout.splitlines():
                record = json.loads(line)
                for app in record.get("apps", []):
                    suspended = "suspended" in (app.get("state") or "").split(",")
                    yield (app["name"], number(app.get("peakMB")),
                           number(app.get("residentMB")) if suspended else None, app.get("rank"), app.get("reason"),
                           record["file"])

    return run


def distribution(F, column):
    values = F.sort_array(F.collect_list(column))
    n = F.size(values)

    def at(p):
        return F.element_at(values, F.greatest(F.lit(1), F.ceil(F.lit(p / 100.0) * n).cast("int")))

    return F.when(n > 0, F.struct(n.alias("count"), at(50).alias("p50"), at(90).alias("p90"),
                                  at(99).alias("p99"), F.element_at(values, -1).alias("max")))


def aggregate(spark, memhunt, files, partitions):
    from pyspark.sql import functions as F
    from pyspark.sql.types import DoubleType, IntegerType, StringType, StructField, StructType

    schema = StructType([StructField("app", StringType()), StructField("peakMB", DoubleType()),
                         StructField("suspendedMB", DoubleType()), StructField("rank", IntegerType()),
                         StructField("reason", StringType()), StructField("file", StringType())])
    rows = spark.sparkContext.parallelize(files, max(1, min(partitions, len(files) or 1))).mapPartitions(
        scan_partition(memhunt))
    frame = spark.createDataFrame(rows, schema).cache()
    bucket = (F.when(F.col("rank") <= 1, "1").when(F.col("rank") <= 5, "2-5").when(F.col("rank") <= 10, "6-10")
              .otherwise(">10"))
    figures = frame.groupBy("app").agg(
        F.count(F.lit(1)).alias("records"),
        F.sum(F.when(F.col("rank").isNotNull() & (bucket == "1"), 1).otherwise(0)).alias("r1"),
        F.sum(F.when(F.col("rank").isNotNull() & (bucket == "2-5"), 1).otherwise(0)).alias("r2"),
        F.sum(F.when(F.col("rank").isNotNull() & (bucket == "6-10"), 1).otherwise(0)).alias("r6"),
        F.sum(F.when(F.col("rank").isNotNull() & (bucket == ">10"), 1).otherwise(0)).alias("r11"),
        distribution(F, "peakMB").alias("peakMB"),
        distribution(F, "suspendedMB").alias("suspendedResidentMB"),
    ).collect()
    reasons = frame.where(F.col("reason").isNotNull()).groupBy("app", "reason").count().collect()
    records = frame.select("file").distinct().count()
    apps = {}
    for row in figures:
        apps[row["app"]] = {
            "records": row["records"],
            "ranks": {"1": row["r1"], "2-5": row["r2"], "6-10": row["r6"], ">10": row["r11"]},
            "peakMB": row["peakMB"].asDict() if row["peakMB"] else None,
            "suspendedResidentMB": row["suspendedResidentMB"].asDict() if row["suspendedResidentMB"] else None,
            "reasons": {},
        }
    for row in reasons:
        apps[row["app"]]["reasons"][row["reason"]] = row["count"]
    # Records that name no app have no row: counted from the apps' files (a record without apps is not
    # seen here, as in memhunt's per-app figures).
    return {"apps": apps, "recordsWithApps": records}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memhunt", default="memhunt")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("operands", nargs="+")
    args = parser.parse_args()
    files = expand(args.operands)  # first: an operand the job cannot read stops it before Spark starts
    from pyspark.sql import SparkSession

    memhunt = os.path.abspath(args.memhunt) if os.path.sep in args.memhunt else args.memhunt
    spark = (SparkSession.builder.master(args.master).appName("memhunt-scan")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        result = aggregate(spark, memhunt, files, args.partitions)
    finally:
        spark.stop()
    json.dump(result, sys.stdout, sort_keys=True, indent=1)
    print()


if __name__ == "__main__":
    main()
