#!/usr/bin/env python3
"""memhunt's fleet scan on Spark: executors run `memhunt scan --format ndjson` on the fleet's files, the
per-record lines become a DataFrame (written as Parquet with --out), and Spark aggregates the per-app
figures `memhunt scan --format json` prints:

  records              the records the app appears in
  ranks                how often it ranked 1, 2-5, 6-10, over 10 by peak (JetsamEvents)
  peakMB               count, p50, p90, p99, max of its peaks
  suspendedResidentMB  the same of its footprint in the records where it was suspended
  reasons              kill reasons (a crash report's kind) with counts
  devices, builds      the records' products and OS builds with counts

    Benchmarks/spark/scan_job.py --memhunt PATH [--partitions 4] [--master local[2]] [--out DIR]
        [--accept-rejected] (DIR | FILE | URL | URI | @LIST)...

Operands:
  DIR, FILE        local paths, walked on the driver (hidden names skipped); the executors run memhunt on
                   the paths, so on a cluster they must be on a mount every executor sees
  http(s)://…      passed to memhunt, which fetches them on the executor
  hdfs://, s3a://, file://, any other scheme://
                   read through Spark's own file system (Hadoop's): a folder is read recursively with
                   `binaryFiles`, and each partition writes its files' bytes to a private temporary folder
                   of the executor, 500 files at a time, and runs memhunt on them; the records keep the URI
                   as their `file`. The scheme's file system must be on Spark's class path (s3a needs
                   hadoop-aws and its credentials, as for any Spark job)
  @LIST            a file of operands, one per line

An input memhunt rejects (its stderr's `memhunt: rejected FILE: REASON` lines, or a memhunt run that ends
non-zero without naming one) and an operand the driver cannot read (no file system for the scheme, no such
path, a folder of no file) is listed in the summary's `rejected` ({"file", "reason"}) and makes the job
exit 1 after writing its output; `--accept-rejected` makes that exit 0 (the list is still there).

Crash SDKs' claims (`sdk-export` lines) are graded against every OS record of the fleet that can settle them
(JetsamEvents, crash reports, kill logs), which one executor's chunk of 500 files does not hold: when the fleet
has SDK exports, the driver runs one `memhunt scan --format json` over the SDK exports and those OS records
(local paths and http(s) URLs; file-system URIs are counted in `sdkClaimsLeftOut`) and copies its `sdkClaims`,
the per-app, per-SDK grade counts `memhunt scan` prints. SDK events are no records: memhunt counts none.

Output: the JSON summary {"apps": {name: figures}, "records": N, "recordsWithApps": N, "rejected": [...],
"sdkClaims": [...] when the fleet has SDK exports} on stdout; with --out DIR (a local path or any URI Spark writes to) also DIR/summary.json and
DIR/records.parquet (one row per record, the ndjson line's fields: file, kind, time, product, build,
compressions, apps; written over an earlier run's), and DIR/sdk_events.parquet when the fleet has SDK exports
(one row per SDK event, its ndjson line's fields: file, sdk, shape, eventID, claim, app, bundleID, version, os,
build, product, pid, time, timeWritten, timeBasis, clock). When every operand was rejected before Spark would
start (an empty folder, a list that cannot be read), Spark is not started and --out is not written.

Percentiles are exact and nearest-rank, as memhunt's: the value at 1-based position ceil(p/100 * n) of
the sorted values (`sort_array(collect_list(...))` then `element_at`), not `percentile_approx`. Exact is
fine for fleets whose per-app value lists fit an executor (10,000 records are 80 KB per app); an
approximate percentile would not match memhunt's figures. memhunt's ndjson already rounds MB to one
decimal; nearest-rank picks an element, so rounding before or after gives the same figure.

memhunt counts a file with the same bytes as one it read once (`duplicates`); each memhunt run here sees
at most 500 files, so the same bytes in two runs are two records for the job.

Needs PySpark (`pip install pyspark`) and Java 17.
"""
import argparse
import decimal
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Files per memhunt process within a partition: keeps command lines short of ARG_MAX, and bounds the bytes
# a partition of file-system input holds on the executor's disk at once.
CHUNK = 500

URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# The kinds of record a crash SDK's claim is graded against, and the SDK exports themselves.
SDK_KIND = "sdk-export"
GRADED_KINDS = (SDK_KIND, "jetsam-event", "crash-report", "kill-log")
REJECTED = "memhunt: rejected "


def classify(operands):
    """Local files (walked), http(s) URLs, file-system URIs, and rejections found without Spark."""
    files, uris, rejected = [], [], []
    for operand in operands:
        if operand.startswith("@"):
            try:
                with open(operand[1:]) as f:
                    listed = [line.strip() for line in f if line.strip()]
            except OSError as error:
                rejected.append({"file": operand, "reason": "the list cannot be read: %s" % error.strerror})
                continue
            more = classify(listed)
            files += more[0]
            uris += more[1]
            rejected += more[2]
        elif operand.startswith(("http://", "https://")):
            files.append(operand)
        elif URI.match(operand):
            uris.append(operand)
        elif os.path.isdir(operand):
            found = []
            for folder, dirs, names in os.walk(operand):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [os.path.join(folder, n) for n in sorted(names) if not n.startswith(".")]
            if not found:
                rejected.append({"file": operand, "reason": "no files to read"})
            files += found
        else:
            # memhunt names a path it cannot read (and exits 2): its reason is the job's.
            files.append(operand)
    return files, uris, rejected


def run_memhunt(memhunt, paths, names):
    """memhunt scan --format ndjson on `paths`: ("record", dict) and ("rejected", {"file", "reason"}) items.
    `names` maps a path as memhunt names it to the name the job reports (a URI for file-system input)."""
    done = subprocess.run([memhunt, "scan", "--format", "ndjson", "--"] + paths, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
    for line in done.stdout.splitlines():
        record = json.loads(line)
        record["file"] = names.get(record["file"], record["file"])
        yield ("record", record)
    named = 0
    for line in done.stderr.splitlines():
        if not line.startswith(REJECTED):
            continue
        # `memhunt: rejected FILE: REASON`; a file name may hold ": ", so the known names decide the split.
        rest = line[len(REJECTED):]
        split = next((m.start() for m in re.finditer(": ", rest) if rest[:m.start()] in names), None)
        if split is None:
            split = rest.find(": ")
        file = rest[:split] if split >= 0 else rest
        yield ("rejected", {"file": names.get(file, file), "reason": rest[split + 2:] if split >= 0 else ""})
        named += 1
    if done.returncode != 0 and named == 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no message)"]
        yield ("rejected", {"file": ", ".join(names.get(p, p) for p in paths[:3]) + (", …" if len(paths) > 3 else ""),
                            "reason": "memhunt scan exited %d: %s" % (done.returncode, tail[0])})


def scan_paths(memhunt):
    """mapPartitions over local paths and http(s) URLs: memhunt reads or fetches them itself."""

    def run(paths):
        paths = list(paths)
        for start in range(0, len(paths), CHUNK):
            chunk = paths[start:start + CHUNK]
            yield from run_memhunt(memhunt, chunk, {p: p for p in chunk})

    return run


def scan_bytes(memhunt):
    """mapPartitions over `binaryFiles` (uri, bytes): each chunk's bytes go to a private temporary folder of
    the executor under their own base names (memhunt reads them as it reads any file), then are removed.
    One memhunt call reads a chunk: piping each file to its own `memhunt scan -` took 27 ms a file (100
    generated records, release build, process start and the copy of stdin), 15 ms for all 100 in one call."""

    def run(pairs):
        chunk = []
        for pair in pairs:
            chunk.append(pair)
            if len(chunk) == CHUNK:
                yield from run_chunk(chunk)
                chunk = []
        if chunk:
            yield from run_chunk(chunk)

    def run_chunk(chunk):
        folder = tempfile.mkdtemp(prefix="memhunt-scan-")
        try:
            paths, names = [], {}
            for index, (uri, content) in enumerate(chunk):
                base = uri.rstrip("/").rsplit("/", 1)[-1] or "artifact"
                os.mkdir(os.path.join(folder, str(index)))
                path = os.path.join(folder, str(index), base)
                with open(path, "wb") as out:
                    out.write(content)
                paths.append(path)
                names[path] = uri
            yield from run_memhunt(memhunt, paths, names)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    return run


def check_uris(spark, uris):
    """The URIs Spark can read, and a rejection for each it cannot: no file system for the scheme, no such
    path, a folder of no file. Checked on the driver before the job, so none is dropped without a word."""
    from py4j.protocol import Py4JJavaError

    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    readable, rejected = [], []
    for uri in uris:
        try:
            path = jvm.org.apache.hadoop.fs.Path(uri)
            fs = path.getFileSystem(conf)
            statuses = fs.globStatus(path)
            if not statuses:
                rejected.append({"file": uri, "reason": "no such file or folder"})
            elif not any(fs.listFiles(status.getPath(), True).hasNext() for status in statuses):
                rejected.append({"file": uri, "reason": "no files to read"})
            else:
                readable.append(uri)
        except Py4JJavaError as error:
            problem = error.java_exception
            rejected.append({"file": uri, "reason": "%s: %s" % (problem.getClass().getSimpleName(),
                                                                 problem.getMessage())})
    return readable, rejected


def number(value):
    """JSON writes 725.0 as 725: a float for Spark's DoubleType."""
    return None if value is None else float(value)


def row(record):
    """One ndjson record as a row of `RECORD_SCHEMA`."""
    compressions = record.get("compressions")
    return (record["file"], record.get("kind"), number(record.get("time")), record.get("product"),
            record.get("build"), None if compressions is None else decimal.Decimal(compressions),
            [(app["name"], number(app.get("peakMB")), number(app.get("residentMB")), app.get("rank"),
              app.get("state"), app.get("reason")) for app in record.get("apps", [])])


def record_schema():
    from pyspark.sql.types import (ArrayType, DecimalType, DoubleType, IntegerType, StringType, StructField,
                                   StructType)

    app = StructType([StructField("name", StringType()), StructField("peakMB", DoubleType()),
                      StructField("residentMB", DoubleType()), StructField("rank", IntegerType()),
                      StructField("state", StringType()), StructField("reason", StringType())])
    # compressions is a UInt64 counter (UInt64.max occurs): 20 digits, beyond a LongType.
    return StructType([StructField("file", StringType()), StructField("kind", StringType()),
                       StructField("time", DoubleType()), StructField("product", StringType()),
                       StructField("build", StringType()), StructField("compressions", DecimalType(20, 0)),
                       StructField("apps", ArrayType(app))])


# The fields of an SDK event's ndjson line, in its Parquet row.
SDK_FIELDS = ("file", "sdk", "shape", "eventID", "claim", "app", "bundleID", "version", "os", "build", "product", "pid",
              "time", "timeWritten", "timeBasis", "clock")


def sdk_schema():
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    types = {"pid": LongType(), "time": DoubleType()}
    return StructType([StructField(name, types.get(name, StringType())) for name in SDK_FIELDS])


def sdk_row(record):
    """One SDK event's ndjson line as a row of `sdk_schema()`."""
    def value(name):
        found = record.get(name)
        if found is None:
            return None
        return float(found) if name == "time" else int(found) if name == "pid" else str(found)

    return tuple(value(name) for name in SDK_FIELDS)


def distribution(F, column):
    values = F.sort_array(F.collect_list(column))
    n = F.size(values)

    def at(p):
        return F.element_at(values, F.greatest(F.lit(1), F.ceil(F.lit(p / 100.0) * n).cast("int")))

    return F.when(n > 0, F.struct(n.alias("count"), at(50).alias("p50"), at(90).alias("p90"),
                                  at(99).alias("p99"), F.element_at(values, -1).alias("max")))


def figures(records):
    """The per-app figures of a DataFrame of records, as memhunt's `apps` (keyed by name)."""
    from pyspark.sql import functions as F

    rows = records.select("product", "build", F.explode("apps").alias("a")).select(
        "product", "build", F.col("a.name").alias("app"), F.col("a.peakMB").alias("peakMB"),
        F.when(F.array_contains(F.split(F.coalesce(F.col("a.state"), F.lit("")), ","), "suspended"),
               F.col("a.residentMB")).alias("suspendedMB"),
        F.col("a.rank").alias("rank"), F.col("a.reason").alias("reason")).cache()
    rank = F.col("rank")

    def bucket(condition):
        return F.sum(F.when(rank.isNotNull() & condition, 1).otherwise(0))

    apps = {}
    for r in rows.groupBy("app").agg(
            F.count(F.lit(1)).alias("records"), bucket(rank <= 1).alias("r1"),
            bucket((rank > 1) & (rank <= 5)).alias("r2"), bucket((rank > 5) & (rank <= 10)).alias("r6"),
            bucket(rank > 10).alias("r11"), distribution(F, "peakMB").alias("peakMB"),
            distribution(F, "suspendedMB").alias("suspendedResidentMB")).collect():
        apps[r["app"]] = {
            "records": r["records"],
            "ranks": {"1": r["r1"], "2-5": r["r2"], "6-10": r["r6"], ">10": r["r11"]},
            "peakMB": r["peakMB"].asDict() if r["peakMB"] else None,
            "suspendedResidentMB": r["suspendedResidentMB"].asDict() if r["suspendedResidentMB"] else None,
            "reasons": {}, "devices": {}, "builds": {},
        }
    for column, key in (("reason", "reasons"), ("product", "devices"), ("build", "builds")):
        for r in rows.where(F.col(column).isNotNull()).groupBy("app", column).count().collect():
            apps[r["app"]][key][r[column]] = r["count"]
    rows.unpersist()
    return apps


def write_text(spark, uri, text):
    """Writes `text` to `uri` through Hadoop's file system (a local path or any URI Spark writes to)."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    out = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()).create(path, True)
    try:
        out.write(bytearray(text.encode("utf-8")))
    finally:
        out.close()


def run_job(spark, memhunt, files, uris, rejected, partitions, out):
    """The summary: figures, record counts and rejections (`rejected`: those found before Spark started)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    sc = spark.sparkContext
    readable, unreadable = check_uris(spark, uris)
    rejected = rejected + unreadable
    parts = []
    if files:
        parts.append(sc.parallelize(files, max(1, min(partitions, len(files)))).mapPartitions(scan_paths(memhunt)))
    if readable:
        # A folder is read recursively (FileInputFormat leaves out names starting with `_` or `.`).
        sc._jsc.hadoopConfiguration().set("mapreduce.input.fileinputformat.input.dir.recursive", "true")
        # One RDD per URI: binaryFiles would split a joined list at commas, which a URI may hold.
        parts += [sc.binaryFiles(uri, partitions).mapPartitions(scan_bytes(memhunt)) for uri in readable]
    items = sc.union(parts) if parts else sc.emptyRDD()
    # Kept (spilled to disk when memory is short) so that the records and the rejections come from one
    # memhunt run per chunk; were a partition lost, Spark would run memhunt on its files again.
    items = items.persist(StorageLevel.MEMORY_AND_DISK)
    rejected += items.filter(lambda item: item[0] == "rejected").map(lambda item: item[1]).collect()
    read = spark.createDataFrame(items.filter(lambda item: item[0] == "record").map(lambda item: row(item[1])),
                                 record_schema()).cache()
    # An SDK export's events are graded, not counted as records (as in memhunt's own scan).
    records = read.where(F.col("kind").isNull() | (F.col("kind") != SDK_KIND))
    summary = {
        "apps": figures(records),
        "records": records.count(),
        "recordsWithApps": records.where(F.size("apps") > 0).count(),
        "rejected": sorted(rejected, key=lambda r: (r["file"], r["reason"])),
    }
    if read.where(F.col("kind") == SDK_KIND).limit(1).count():
        graded = sorted(r["file"] for r in read.where(F.col("kind").isin(*GRADED_KINDS)).select("file")
                        .distinct().collect())
        summary.update(sdk_claims(memhunt, graded))
        if out:
            events = items.filter(lambda item: item[0] == "record" and item[1].get("kind") == SDK_KIND)
            spark.createDataFrame(events.map(lambda item: sdk_row(item[1])), sdk_schema()).write.mode(
                "overwrite").parquet(out.rstrip("/") + "/sdk_events.parquet")
    if out:
        base = out.rstrip("/")
        records.write.mode("overwrite").parquet(base + "/records.parquet")
        write_text(spark, base + "/summary.json", json.dumps(summary, sort_keys=True, indent=1) + "\n")
    read.unpersist()
    items.unpersist()
    return summary


def sdk_claims(memhunt, files):
    """`sdkClaims` of one memhunt scan over the SDK exports and OS records `files` (local paths and http(s) URLs;
    others are counted in `sdkClaimsLeftOut`)."""
    usable = [f for f in files if f.startswith(("http://", "https://")) or os.path.isfile(f)]
    result = {}
    if len(usable) < len(files):
        result["sdkClaimsLeftOut"] = len(files) - len(usable)
    if not usable:
        return result
    done = subprocess.run([memhunt, "scan", "--format", "json", "--"] + usable, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, encoding="utf-8", errors="replace")
    try:
        result["sdkClaims"] = json.loads(done.stdout).get("sdkClaims", [])
    except ValueError:
        raise SystemExit("scan_job.py: memhunt scan of the SDK exports failed (exit %d): %s"
                         % (done.returncode, done.stderr.strip()[:2000]))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memhunt", default="memhunt")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--out", help="a folder (local or URI) for summary.json and records.parquet")
    parser.add_argument("--accept-rejected", action="store_true",
                        help="exit 0 when inputs were rejected (they are listed in the summary either way)")
    parser.add_argument("operands", nargs="+")
    args = parser.parse_args()
    files, uris, rejected = classify(args.operands)
    if not files and not uris:
        # Nothing to read (every operand rejected already): the summary without starting Spark.
        summary = {"apps": {}, "records": 0, "recordsWithApps": 0,
                   "rejected": sorted(rejected, key=lambda r: (r["file"], r["reason"]))}
    else:
        from pyspark.sql import SparkSession

        memhunt = os.path.abspath(args.memhunt) if os.path.sep in args.memhunt else args.memhunt
        spark = (SparkSession.builder.master(args.master).appName("memhunt-scan")
                 .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.shuffle.partitions", "4").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        try:
            summary = run_job(spark, memhunt, files, uris, rejected, args.partitions, args.out)
        finally:
            spark.stop()
    json.dump(summary, sys.stdout, sort_keys=True, indent=1)
    print()
    if summary["rejected"]:
        print("scan_job.py: %d input(s) rejected (listed in the summary's \"rejected\")%s"
              % (len(summary["rejected"]), "" if args.accept_rejected else "; exit 1 (--accept-rejected: exit 0)"),
              file=sys.stderr)
        if not args.accept_rejected:
            sys.exit(1)


if __name__ == "__main__":
    main()
