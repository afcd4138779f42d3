#!/usr/bin/env python3
"""Writes N JetsamEvent records with known figures (deterministic: the values follow from the index, the
process order inside each record is shuffled with a seeded generator). The shape is that of
Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips: an .ips header line, then the JSON body.

Record i (page size 16,384 bytes, so 64 pages = 1 MB):
  Alpha   an app in every record: peak 100 + i % 20 MB (lifetimeMax), suspended on even i with a footprint
          of 10 + i % 20 MB (else background, 5 MB); reason per-process-limit when i % 5 == 0, vm-pageshortage
          when i % 20 == 7
  Beta    an app on odd i: peak 300 MB, background, footprint 50 MB
  daemonN i % 12 daemons of 1,000 MB each (so Alpha ranks 1 + i % 12 + (i odd))
  kernel_task, launchd: not apps, small
  product iPhone15,2 when i % 3 == 0 else iPhone18,1; build iPhone OS 26.1 (23B5) when i % 20 >= 15 else
  iPhone OS 26.0 (23A341); memoryStatus.compressions 1,000,000 + 1,000 × i
  incident 00000000-0000-4000-8SSS-IIIIIIIIIIII (SSS the seed mod 1,000, I the index): records of two
          seeds are other records, as memhunt identifies a record by its incident and processes

    Tests/Support/gen_jetsam.py DIR [--count 20] [--seed 13]
"""
import argparse
import json
import os
import random

MB = 64  # pages of 16,384 bytes


def record(i, rng, seed):
    j = i % 20
    processes = [{"name": "Alpha", "pid": 400 + i, "rpages": (10 + j) * MB if i % 2 == 0 else 5 * MB,
                  "lifetimeMax": (100 + j) * MB, "states": ["suspended"] if i % 2 == 0 else ["background"]}]
    if i % 5 == 0:
        processes[0]["reason"] = "per-process-limit"
    elif j == 7:
        processes[0]["reason"] = "vm-pageshortage"
    if i % 2 == 1:
        processes.append({"name": "Beta", "pid": 500, "rpages": 50 * MB, "lifetimeMax": 300 * MB,
                          "states": ["background"]})
    for n in range(i % 12):
        processes.append({"name": "daemon%d" % n, "pid": 600 + n, "rpages": 10 * MB, "lifetimeMax": 1000 * MB,
                          "states": ["daemon"]})
    processes.append({"name": "kernel_task", "pid": 0, "rpages": 2 * MB, "lifetimeMax": 2 * MB, "states": []})
    processes.append({"name": "launchd", "pid": 1, "rpages": MB, "lifetimeMax": MB, "states": ["daemon"]})
    rng.shuffle(processes)
    date = "2026-08-%02d %02d:%02d:%02d.00 +0900" % (1 + i // 1440 % 28, i // 60 % 24, i % 60, i % 60)
    build = "iPhone OS 26.1 (23B5)" if j >= 15 else "iPhone OS 26.0 (23A341)"
    header = {"bug_type": "298", "timestamp": date, "os_version": build, "roots_installed": 0,
              "incident_id": "00000000-0000-4000-8%03d-%012d" % (seed % 1000, i)}
    body = {
        "build": build,
        "product": "iPhone15,2" if i % 3 == 0 else "iPhone18,1",
        "incident": header["incident_id"],
        "date": date,
        "bug_type": "298",
        "memoryStatus": {"compressorSize": 60000, "compressions": 1000000 + 1000 * i, "decompressions": 500000,
                         "pageSize": 16384, "uncompressed": 190000,
                         "memoryPages": {"active": 120000, "throttled": 0, "wired": 95000, "inactive": 110000,
                                         "free": 3000, "speculative": 900}},
        "largestProcess": "kernel_task",
        "processes": processes,
    }
    return json.dumps(header) + "\n" + json.dumps(body, indent=2) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.dir, exist_ok=True)
    for i in range(args.count):
        # 1,000 files per folder: a fleet dump is usually split by day or device.
        folder = os.path.join(args.dir, "%03d" % (i // 1000))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "JetsamEvent-%05d.ips" % i), "w") as out:
            out.write(record(i, rng, args.seed))


if __name__ == "__main__":
    main()
