#!/usr/bin/env python3
"""Runs Benchmarks/duckdb/scan.sql (DuckDB's per-app figures over `memhunt scan --format ndjson` output)
and prints them as JSON {"apps": {name: figures}, "records": N, "recordsWithApps": N}: the shape of the
Spark job's summary, the figures of `memhunt scan --format json`'s `apps`.

    memhunt scan --format ndjson fleet/ > fleet.ndjson
    Benchmarks/duckdb/scan.py fleet.ndjson          (a file or a glob of them)

Needs the duckdb package (`pip install duckdb`).
"""
import json
import os
import sys

import duckdb

SQL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scan.sql")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    db = duckdb.connect()
    db.execute("SET VARIABLE ndjson = ?", [sys.argv[1]])
    with open(SQL) as f:
        query = f.read().rstrip().rstrip(";")
    try:
        rows = db.execute("SELECT to_json(figures) FROM (%s) AS figures" % query).fetchall()
        records, with_apps = db.execute(
            "SELECT count(*), count(*) FILTER (WHERE len(apps) > 0) FROM read_ndjson(getvariable('ndjson'), "
            "columns = {apps: 'JSON[]'})").fetchone()
    except duckdb.Error as error:
        print("scan.py: %s" % error, file=sys.stderr)
        sys.exit(1)
    apps = {}
    for (text,) in rows:
        figures = json.loads(text)
        apps[figures.pop("app")] = figures
    json.dump({"apps": apps, "records": records, "recordsWithApps": with_apps}, sys.stdout, sort_keys=True,
              indent=1)
    print()


if __name__ == "__main__":
    main()
