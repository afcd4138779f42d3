#!/usr/bin/env python3
"""Validates a JUnit XML report: against Tests/Support/junit-10.xsd with xmllint (Debian's
libxml2-utils, installed by scripts/setup), then what a schema cannot say: test case names are
unique (GitLab drops duplicates) and each suite's counts match its test cases.

usage: validate_junit.py REPORT.xml   exit 0 when valid; otherwise the problems on stderr, exit 1.
"""
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

schema = pathlib.Path(__file__).resolve().parent / "junit-10.xsd"
report = sys.argv[1]
if shutil.which("xmllint") is None:
    sys.exit("validate_junit: xmllint is missing: run scripts/setup (Debian: libxml2-utils)")
result = subprocess.run(["xmllint", "--noout", "--schema", str(schema), report], capture_output=True, text=True)
if result.returncode != 0:
    sys.stderr.write(result.stderr)
    sys.exit(1)

problems = []
root = ET.parse(report).getroot()
names = [case.get("name") for case in root.iter("testcase")]
duplicates = sorted({n for n in names if names.count(n) > 1})
if duplicates:
    problems.append(f"duplicate test case names: {duplicates}")
totals = {"tests": 0, "failures": 0, "errors": 0}
for suite in root.iter("testsuite"):
    cases = suite.findall("testcase")
    counted = {
        "tests": len(cases),
        "failures": sum(len(c.findall("failure")) for c in cases),
        "errors": sum(len(c.findall("error")) for c in cases),
        "skipped": sum(len(c.findall("skipped")) for c in cases),
    }
    for key, value in counted.items():
        if int(suite.get(key, "0")) != value:
            problems.append(f"suite {suite.get('name')!r}: {key}={suite.get(key)} but {value} counted")
    for key in totals:
        totals[key] += counted[key]
for key, value in totals.items():
    if int(root.get(key, "0")) != value:
        problems.append(f"testsuites: {key}={root.get(key)} but {value} counted")
for problem in problems:
    print("validate_junit: " + problem, file=sys.stderr)
print(f"validate_junit: {report}: {len(names)} test cases, {totals['failures']} failures, {totals['errors']} errors")
sys.exit(1 if problems else 0)
