#!/usr/bin/env python3
"""Validates SARIF logs against the official SARIF 2.1.0 JSON schema (jsonschema from PyPI).

    validate_sarif.py SCHEMA.json LOG.sarif [LOG.sarif ...]

Exits 0 when every log is valid; 1 with each error's path and message otherwise; 3 when jsonschema is
missing (the caller skips)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("jsonschema is not installed (python3 -m pip install jsonschema)", file=sys.stderr)
    sys.exit(3)


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator = validator_class(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            log = json.load(f)
        for error in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
            bad += 1
            where = "/".join(str(p) for p in error.absolute_path)
            print("%s: /%s: %s" % (path, where, error.message[:300]), file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
