#!/usr/bin/env python3
"""Echoes what it was given as facts, and one finding that cites the first artifact."""
import json, sys

request = json.load(sys.stdin)
print(json.dumps({"fact": "custom.artifacts", "value": len(request["artifacts"])}))
print(json.dumps({"fact": "custom.step", "value": request["step"]}))
print(json.dumps({"fact": "custom.threshold", "value": request["parameters"].get("threshold")}))
first = request["artifacts"][0]["source"] if request["artifacts"] else "none"
print(json.dumps({"severity": "warning", "title": "Custom rule tripped for " + str(request["subject"]["app"]),
                  "detail": "compressions seen: %s" % request["facts"].get("jetsam.compressions"),
                  "evidence": [{"source": first, "line": 1}], "next": "Ask the team."}))
