#!/usr/bin/env python3
"""The plain-Python side of the fleet-metrickit row: a `json` loop over MetricKit payload files computing what
`memhunt scan --format json` gives of them: the records (metric payloads), the files skipped by kind (diagnostic
payloads), the files whose bytes were already counted (duplicates), and per app (the payload's bundle id) its
records and its peak and average-suspended-memory percentiles (p50/p90/p99/max in MB of 1,048,576 bytes with one
decimal; nearest-rank: the value at 1-based position ceil(p/100 * n)), printed as JSON. Single process, one file
at a time.

The payload is found as memhunt documents it (MetricKitParser): the object itself, or inside `payload` or
`_source`, or the newest (latest `timeStampEnd`, the first of equals) of an array; a diagnostic payload has a
`…Diagnostics` list, a metric payload a time stamp and a `…Metrics` key. Memory sizes are localized measurement
strings (`742,400 kB`, `1.106.818 kB`, `228 145 Ko`, `1,106,818千字节`): a number with grouping marks and a unit
word; kB is 1,000 bytes. Bytes become whole KiB rounded half away from zero, as memhunt's do.

    Benchmarks/fleet_scan_metrickit.py DIR
"""
import datetime
import hashlib
import json
import math
import os
import sys

SPACES = {" ", "\u00a0", "\u202f", "\u2009", "'", "\u2019"}
UNITS = {"B": 1, "b": 1, "byte": 1, "bytes": 1, "字节": 1, "o": 1, "octets": 1,
         "kB": 1e3, "KB": 1e3, "kb": 1e3, "千字节": 1e3, "Ko": 1e3, "ko": 1e3, "kilobytes": 1e3,
         "MB": 1e6, "兆字节": 1e6, "Mo": 1e6, "megabytes": 1e6,
         "GB": 1e9, "吉字节": 1e9, "Go": 1e9, "gigabytes": 1e9,
         "KiB": 1024, "MiB": 1048576, "GiB": 1073741824, "КБ": 1e3, "кБ": 1e3, "МБ": 1e6, "ГБ": 1e9}


def round_half_away(x):
    whole = math.floor(x)
    return whole + (1 if x - whole >= 0.5 else 0)


def measurement_bytes(text):
    """The bytes a measurement string states, or None."""
    if not isinstance(text, str):
        return None
    end = 0
    while end < len(text) and ("0" <= text[end] <= "9" or text[end] in ",.-" or text[end] in SPACES):
        end += 1
    unit = text[end:].strip(" \t")
    marks = [c for c in text[:end] if c not in SPACES]
    commas, dots = marks.count(","), marks.count(".")
    decimal = None
    if commas and dots:
        decimal = [c for c in marks if c in ",."][-1]
    elif commas + dots == 1:
        index = next(i for i, c in enumerate(marks) if c in ",.")
        decimal = None if len(marks) - index - 1 == 3 else marks[index]
    literal = "".join("." if c == decimal else c for c in marks if c == decimal or c not in ",.")
    if not any(c.isdigit() for c in literal) or unit not in UNITS:
        return None
    try:
        return float(literal) * UNITS[unit]
    except ValueError:
        return None


def end_time(payload):
    text = payload.get("timeStampEnd") if isinstance(payload, dict) else None
    try:
        return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S %z").timestamp()
    except (TypeError, ValueError):
        return None


def find_payload(value):
    """(payload, "metrics" | "diagnostics") inside `value`, or None."""
    if isinstance(value, list):
        best = None
        for element in value:
            found = find_payload(element)
            if found is None:
                continue
            key = end_time(found[0])
            key = -math.inf if key is None else key
            if best is None or key > best[0]:
                best = (key, found)
        return best and best[1]
    if not isinstance(value, dict):
        return None
    for wrapper in ("payload", "_source"):
        if wrapper in value:
            found = find_payload(value[wrapper])
            if found:
                return found
    if any(k.endswith("Diagnostics") and isinstance(v, list) for k, v in value.items()):
        return value, "diagnostics"
    if ("timeStampBegin" in value or "timeStampEnd" in value) and any(k.endswith("Metrics") for k in value):
        return value, "metrics"
    return None


def kib(nbytes):
    return 0 if nbytes <= 0 else round_half_away(nbytes / 1024)


def mb(value_kib):
    return round_half_away(value_kib / 1024 * 10) / 10


def distribution(values):
    if not values:
        return None
    values.sort()

    def at(p):
        return values[min(max(math.ceil(p / 100 * len(values)), 1), len(values)) - 1]

    return {"count": len(values), "p50": mb(at(50)), "p90": mb(at(90)), "p99": mb(at(99)), "max": mb(values[-1])}


def main():
    seen = set()
    out = {"records": 0, "recordsByKind": {}, "skipped": {}, "duplicates": 0, "apps": {}}
    apps = {}
    for folder, _, names in os.walk(sys.argv[1]):
        for name in names:
            if name.startswith("."):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            digest = hashlib.sha256(data).digest()[:16]
            if digest in seen:
                out["duplicates"] += 1
                continue
            seen.add(digest)
            found = find_payload(json.loads(data))
            if found is None:
                continue
            payload, shape = found
            if shape == "diagnostics":
                out["skipped"]["metrickit-diagnostics"] = out["skipped"].get("metrickit-diagnostics", 0) + 1
                continue
            out["records"] += 1
            out["recordsByKind"]["metrickit-metrics"] = out["recordsByKind"].get("metrickit-metrics", 0) + 1
            app = (payload.get("metaData") or {}).get("bundleIdentifier")
            if not isinstance(app, str):
                continue
            figures = apps.setdefault(app, {"records": 0, "peaks": [], "suspended": []})
            figures["records"] += 1
            memory = payload.get("memoryMetrics") or {}
            peak = measurement_bytes(memory.get("peakMemoryUsage"))
            if peak is not None:
                figures["peaks"].append(kib(peak))
            suspended = measurement_bytes((memory.get("averageSuspendedMemory") or {}).get("averageValue"))
            if suspended is not None:
                figures["suspended"].append(kib(suspended))
    for name, figures in apps.items():
        out["apps"][name] = {"records": figures["records"], "peakMB": distribution(figures["peaks"]),
                             "suspendedResidentMB": distribution(figures["suspended"])}
    json.dump(out, sys.stdout, sort_keys=True, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
