#!/usr/bin/env python3
"""A team's own memhunt check: hold the app's lifetime peak to a budget.

memhunt writes one JSON request to stdin (protocol memhunt.check/2) and reads JSON lines from
stdout: {"fact": KEY, "value": V, "unit": U} records a fact, {"code": …, "severity": …, "title": …}
emits a finding in the findings document's shape.
Exit 0 means the check ran, whatever it found. Playbook step:

    checks:
      - exec: [python3, checks/peak-budget.py]
        timeout: 10
        with: { budget_mb: 600 }
"""
import json
import sys

request = json.load(sys.stdin)
budget = float(request["parameters"].get("budget_mb", 600))
app = request["subject"].get("app") or "the app"
peak = request["facts"].get("jetsam.app.peakMB")
jetsam = [a["source"] for a in request["artifacts"] if a["kind"] == "jetsam-event"]

print(json.dumps({"fact": "team.peakBudgetMB", "value": budget, "unit": "MB"}))
if peak is None:
    sys.exit(0)  # Nothing to judge: no jetsam record lists the app.
print(json.dumps({"fact": "team.peakOverBudgetMB", "value": round(max(0.0, peak - budget), 1), "unit": "MB"}))
if peak > budget:
    print(json.dumps({
        "code": "team-budget.over",
        "severity": "warning",
        "title": "%s peaked at %g MB, over the team's %g MB budget" % (app, peak, budget),
        "detail": "The lifetime peak from the jetsam record is %g MB; the budget agreed for this release is %g MB."
                  % (peak, budget),
        "evidence": [{"source": source} for source in jetsam],
        "next": {"action": "step", "step": "simulator-repro",
                 "text": "Find the screen that allocates before raising the budget."},
    }))
