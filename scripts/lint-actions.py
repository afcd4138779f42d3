"""Checks of GitHub workflow and action files that a schema cannot make (scripts/lint-actions runs it).

Every `run:` script goes through shellcheck with its `${{ ... }}` expressions read as one variable (as
actionlint does), and the expressions' references are checked: `inputs.X` against the action's declared
inputs (a workflow's `workflow_dispatch`/`workflow_call` inputs), `steps.ID` against the ids of the steps
before it in the same job, `matrix.X` against the job's matrix. Problems are printed as FILE:LINE: message;
exit 1 when there is one.
"""
import re
import subprocess
import sys
import tempfile

from ruamel.yaml import YAML

EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
REFERENCE = re.compile(r"\b(inputs|steps|matrix)\.([A-Za-z_][A-Za-z0-9_-]*)")

problems = []


def line_of(node, key):
    try:
        return node.lc.key(key)[0] + 1
    except (AttributeError, KeyError, TypeError):
        return 0


def expressions(value):
    """Every expression in a value, however deep."""
    if isinstance(value, str):
        yield from (m.group(1) for m in EXPRESSION.finditer(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from expressions(key)
            yield from expressions(item)
            if key == "if" and isinstance(item, str) and "${{" not in item:
                yield item
    elif isinstance(value, list):
        for item in value:
            yield from expressions(item)


def check_references(path, line, value, inputs, step_ids, matrix):
    for expression in expressions(value):
        for kind, name in REFERENCE.findall(expression):
            known = {"inputs": inputs, "steps": step_ids, "matrix": matrix}[kind]
            if known is not None and name not in known:
                problems.append("%s:%d: %s.%s is not declared (known: %s)"
                                % (path, line, kind, name, ", ".join(sorted(known)) or "none"))


def shellcheck(path, line, script, shell):
    if shell not in (None, "bash", "sh"):
        return
    body = EXPRESSION.sub(lambda m: "$GITHUB_EXPRESSION", script)
    with tempfile.NamedTemporaryFile("w", suffix=".sh") as handle:
        handle.write("#!/usr/bin/env %s\n" % ("sh" if shell == "sh" else "bash") + body)
        handle.flush()
        # SC2154: the placeholder and the runner's variables are set outside the script.
        run = subprocess.run(["shellcheck", "--format=gcc", "--exclude=SC2154", handle.name],
                             capture_output=True, text=True)
    for report in run.stdout.splitlines():
        match = re.match(r"[^:]+:(\d+):\d+: (.*)", report)
        if match:
            problems.append("%s:%d: run script: %s" % (path, line + int(match.group(1)) - 1, match.group(2)))


def check_steps(path, steps, inputs, matrix, default_shell):
    step_ids = set()
    for step in steps or []:
        check_references(path, step.lc.line + 1, step, inputs, step_ids, matrix)
        if "run" in step:
            shellcheck(path, line_of(step, "run") + 1, str(step["run"]), step.get("shell", default_shell))
        if "id" in step:
            step_ids.add(str(step["id"]))


def main(paths):
    yaml = YAML()
    for path in paths:
        try:
            with open(path) as handle:
                document = yaml.load(handle)
        except Exception as error:  # a file that is not YAML is one problem, not a traceback
            problems.append("%s: not read as YAML: %s" % (path, str(error).replace("\n", " ")))
            continue
        if path.endswith("action.yml") or path.endswith("action.yaml"):
            inputs = set((document.get("inputs") or {}).keys())
            runs = document.get("runs") or {}
            check_steps(path, runs.get("steps"), inputs, None, None)
            check_references(path, line_of(document, "outputs"), document.get("outputs") or {}, inputs,
                             set(s["id"] for s in runs.get("steps") or [] if "id" in s), None)
        else:
            triggers = document.get("on") or {}
            inputs = set()
            if isinstance(triggers, dict):
                for trigger in ("workflow_dispatch", "workflow_call"):
                    inputs |= set(((triggers.get(trigger) or {}).get("inputs") or {}).keys())
            for job in (document.get("jobs") or {}).values():
                matrix = set(((job.get("strategy") or {}).get("matrix") or {}).keys())
                shell = ((job.get("defaults") or {}).get("run") or {}).get("shell")
                check_steps(path, job.get("steps"), inputs, matrix, shell)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
