#!/usr/bin/env python3
"""The plain-Python side of the fleet row: a `json` loop over JetsamEvent files computing the figures
`memhunt scan --format json` gives per app (records, rank buckets, peak and suspended-footprint p50/p90/
p99/max in MB with one decimal, kill reasons), printed as JSON {app: figures}. Single process, one file
at a time; percentiles are nearest-rank (the value at 1-based position ceil(p/100 * n)), as memhunt's.

JetsamEvents only (what Tests/Support/gen_jetsam.py writes); apps are processes without the `daemon`
state, not `com.apple.*`, not the kernel, launchd or SpringBoard-like system processes (a subset of
memhunt's rule that agrees on generated records).

    Benchmarks/fleet_scan.py DIR
"""
import json
import math
import os
import sys

SYSTEM = {"kernel_task", "launchd", "SpringBoard", "backboardd"}


def kib(pages, page_size):
    return round(pages * page_size / 1024)


def mb(value_kib):
    # One decimal, halves away from zero (memhunt's rounding; Python's round() takes halves to even).
    return math.floor(value_kib / 1024 * 10 + 0.5) / 10


def percentile(sorted_values, p):
    position = math.ceil(p / 100 * len(sorted_values))
    return sorted_values[min(max(position, 1), len(sorted_values)) - 1]


def distribution(values):
    if not values:
        return None
    values.sort()
    return {"count": len(values), "p50": mb(percentile(values, 50)), "p90": mb(percentile(values, 90)),
            "p99": mb(percentile(values, 99)), "max": mb(values[-1])}


def main():
    apps = {}
    for folder, _, names in os.walk(sys.argv[1]):
        for name in names:
            with open(os.path.join(folder, name)) as f:
                f.readline()  # the .ips header
                body = json.load(f)
            page_size = body["memoryStatus"]["pageSize"]
            processes = body["processes"]
            peaks = [max(p.get("lifetimeMax", 0), p["rpages"]) for p in processes]
            seen = set()
            for p, peak in sorted(zip(processes, peaks), key=lambda pair: -pair[1]):
                if "daemon" in p["states"] or p["name"].startswith("com.apple.") or p["name"] in SYSTEM:
                    continue
                if p["name"] in seen:
                    continue
                seen.add(p["name"])
                rank = 1 + sum(1 for other in peaks if other > peak)
                figures = apps.setdefault(p["name"], {"records": 0, "ranks": [0, 0, 0, 0], "peaks": [],
                                                      "suspended": [], "reasons": {}})
                figures["records"] += 1
                figures["ranks"][0 if rank <= 1 else 1 if rank <= 5 else 2 if rank <= 10 else 3] += 1
                figures["peaks"].append(kib(peak, page_size))
                if "suspended" in p["states"]:
                    figures["suspended"].append(kib(p["rpages"], page_size))
                if p.get("reason"):
                    figures["reasons"][p["reason"]] = figures["reasons"].get(p["reason"], 0) + 1
    out = {}
    for name, figures in apps.items():
        ranks = figures["ranks"]
        out[name] = {"records": figures["records"],
                     "ranks": {"1": ranks[0], "2-5": ranks[1], "6-10": ranks[2], ">10": ranks[3]},
                     "peakMB": distribution(figures["peaks"]),
                     "suspendedResidentMB": distribution(figures["suspended"]), "reasons": figures["reasons"]}
    json.dump(out, sys.stdout, sort_keys=True, indent=1)
    print()


if __name__ == "__main__":
    main()
