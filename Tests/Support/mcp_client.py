#!/usr/bin/env python3
"""`memhunt mcp` end to end through the official MCP Python SDK's stdio client (`mcp` from PyPI, tests only).

Usage: mcp_client.py MEMHUNT_BINARY (run from the repository root: the artifacts are Fixtures/...).
Exits 0 when every check holds, 1 with the failed check on stderr, 3 when the SDK is not installed.

Checks, against the SDK's own negotiation (2026-07-28 `server/discover`) and the legacy `initialize` handshake:
the tools and their schemas, the JustSend hunt with `run` (structured content: the findings document), a wrong
argument type as an error result that names it, a URL refused without --allow-network, a step-at-a-time hunt
(hunt_start, hunt_step until the end, hunt_answer, hunt_report), the resources, and malformed requests answered
with JSON-RPC errors by a server that goes on serving.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile

try:
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError
except ImportError:
    print("the mcp Python SDK is not installed: run scripts/setup --tests", file=sys.stderr)
    sys.exit(3)

TOOLS = [
    "checks", "classify_leaks", "diff", "hunt_answer", "hunt_report", "hunt_start", "hunt_step", "inspect",
    "ledger_add", "ledger_judge", "playbooks", "run",
    "scan", "validate", "verify_fix",
]


class Failed(Exception):
    pass


def check(condition, what, detail=""):
    if not condition:
        raise Failed(what + (": " + detail if detail else ""))
    print("ok:", what)


def text(result):
    return "".join(part.text for part in result.content if getattr(part, "type", "") == "text")


async def modern(binary):
    server = StdioServerParameters(command=binary, args=["mcp", "--timeout", "120"], cwd=".")
    async with Client(server) as client:
        check(client.session.protocol_version == "2026-07-28", f"negotiated 2026-07-28 (got {client.session.protocol_version})")
        listed = await client.list_tools()
        names = sorted(tool.name for tool in listed.tools)
        check(names == TOOLS, f"the tools are {TOOLS} (got {names})")
        by_name = {tool.name: tool for tool in listed.tools}
        check(by_name["run"].input_schema["required"] == ["artifacts"], "run requires artifacts")
        check(
            sorted(by_name["run"].input_schema["properties"]) == ["app", "artifacts", "baseline", "format", "playbook"],
            "run takes artifacts, app, playbook, baseline and format",
        )
        check(by_name["run"].output_schema["properties"]["schema"]["const"] == "memhunt.findings/3", "run's output schema")

        # The JustSend hunt: the findings document as structured content (the SDK validates it against the schema).
        run = await client.call_tool("run", {"artifacts": ["Fixtures/justsend"], "app": "JustSend"})
        check(not run.is_error, "run of Fixtures/justsend is not an error", text(run)[:300])
        document = run.structured_content
        check(document["schema"] == "memhunt.findings/3", "run answers the findings document")
        check(document["facts"]["jetsam.app.peakMB"] == 725, "jetsam.app.peakMB is 725")
        check(document["facts"]["jetsam.app.rank"] == 7, "jetsam.app.rank is 7")
        check(document["subject"]["app"] == "JustSend", "the subject is JustSend")
        check(text(run).startswith("The eight-step memory hunt"), "the text content is the text report")
        markdown = await client.call_tool("run", {"artifacts": ["Fixtures/justsend"], "app": "JustSend", "format": "markdown"})
        check(text(markdown).startswith("#"), "format markdown gives the Markdown report")
        check(markdown.structured_content["facts"] == document["facts"], "the same document whatever the format")

        # Bad arguments: error results that name the argument.
        wrong = await client.call_tool("run", {"artifacts": ["Fixtures/justsend"], "app": 7})
        check(wrong.is_error and "argument 'app' must be a string; got 7" in text(wrong), "app: 7 is an error naming it", text(wrong))
        wrong = await client.call_tool("inspect", {"artifacts": "Fixtures/justsend"})
        check(wrong.is_error and "argument 'artifacts' must be an array of strings" in text(wrong), "artifacts as a string is an error")
        wrong = await client.call_tool("run", {"artifacts": ["Fixtures/justsend"], "format": "pdf"})
        check(wrong.is_error and "argument 'format' must be one of" in text(wrong), "an unknown format is an error")
        wrong = await client.call_tool("diff", {"before": "a.json"})
        check(wrong.is_error and "argument 'after' is missing" in text(wrong), "diff without after is an error")
        url = await client.call_tool("run", {"artifacts": ["https://example.com/JetsamEvent.ips"]})
        check(url.is_error and "--allow-network" in text(url), "a URL is refused without --allow-network")

        # The other tools.
        inspect = await client.call_tool("inspect", {"artifacts": ["Fixtures/justsend"]})
        check(not inspect.is_error and len(inspect.structured_content["artifacts"]) > 0, "inspect lists the artifacts")
        checks = await client.call_tool("checks", {})
        check(len(checks.structured_content["checks"]) > 5, "checks lists the built-in checks")
        playbooks = await client.call_tool("playbooks", {})
        ids = [p["id"] for p in playbooks.structured_content["playbooks"]]
        check("memory-hunt" in ids, "playbooks lists memory-hunt")
        valid = await client.call_tool("validate", {"playbook": "Playbooks/memory-hunt.yaml"})
        check(not valid.is_error and valid.structured_content["playbooks"][0]["diagnostics"] == [], "validate: memory-hunt is valid")
        diff = await client.call_tool(
            "diff",
            {
                "before": "Tests/MemhuntReportsTests/Golden/justsend.findings.json",
                "after": "Tests/MemhuntReportsTests/Golden/justsend-fixed.findings.json",
            },
        )
        check(not diff.is_error and diff.structured_content["schema"] == "memhunt.diff/1", "diff compares two runs")
        # A pasted tree classified: the pattern, the lines it rests on and the fix.
        tree = (
            "3 (176 bytes) ROOT CYCLE: <CartModel 0x10b300100> [64]\n"
            "   2 (112 bytes) __strong onChange --> ROOT CYCLE: <Closure context 0x10b300200> [32]\n"
            "      __strong self --> CYCLE BACK TO <CartModel 0x10b300100> [64]\n"
        )
        classified = await client.call_tool("classify_leaks", {"tree": tree})
        cycles = (classified.structured_content or {}).get("cycles", [])
        check(not classified.is_error and [c["pattern"] for c in cycles] == ["closure.self-capture-stored"],
              "classify_leaks names a pasted tree's pattern", text(classified)[:300])
        check("Capture self weakly" in text(classified), "classify_leaks gives the fix")
        nothing = await client.call_tool("classify_leaks", {"tree": "no tree here"})
        check(nothing.is_error and "no leak tree was read" in text(nothing), "a text with no tree is an error that says so")
        verified = await client.call_tool("verify_fix", {
            "before": ["Fixtures/leaks/Shop-cycles.leaks.txt"],
            "after": ["Fixtures/leaks/verify/Shop-after-partial.leaks.txt"], "app": "Shop"})
        check(not verified.is_error and verified.structured_content["fix"]["verdict"] == "PARTIAL",
              "verify_fix: the Shop pair is PARTIAL", text(verified)[:300])
        check("PARTIAL closure.self-capture-stored: 3 → 1" in text(verified), "verify_fix says each row")
        scan = await client.call_tool("scan", {"artifacts": ["Fixtures/justsend"]})
        check(not scan.is_error and "schema" in scan.structured_content, "scan folds the records")

        # A hunt one step at a time, as guided triage walks it.
        start = await client.call_tool("hunt_start", {"artifacts": ["Fixtures/justsend"], "app": "JustSend"})
        check(not start.is_error, "hunt_start", text(start)[:300])
        session = start.structured_content["session"]
        steps = start.structured_content["steps"]
        check(start.structured_content["pending"]["number"] == 1, "the hunt starts at step 1")
        guidance = await client.call_tool("hunt_answer", {"session": session, "answer": "?"})
        check(guidance.structured_content["response"] == "said", "? shows the step's guidance without moving")
        check(guidance.structured_content["pending"]["number"] == 1, "still at step 1 after ?")
        responses = []
        for _ in range(steps):
            step = await client.call_tool("hunt_step", {"session": session})
            check(not step.is_error, "hunt_step", text(step)[:300])
            responses.append(step.structured_content["response"])
            if step.structured_content["finished"]:
                break
        check(len(responses) == steps and step.structured_content["finished"], f"{steps} steps walked to the end ({responses})")
        check("ran" in responses, "at least one step ran")
        after = await client.call_tool("hunt_step", {"session": session})
        check(after.is_error and "hunt_report" in text(after), "a finished hunt says to report")
        report = await client.call_tool("hunt_report", {"session": session})
        check(report.structured_content["schema"] == "memhunt.findings/3", "hunt_report answers the findings document")
        check(report.structured_content["facts"]["jetsam.app.peakMB"] == 725, "the hunt found the same peak as run")
        missing = await client.call_tool("hunt_step", {"session": "hunt-99"})
        check(missing.is_error and "no hunt session 'hunt-99'" in text(missing), "an unknown session is an error")

        # The investigation loop of a coding agent: a hypothesis and an experiment added to a copy of seed 000's
        # ledger, each judged on the spot.
        folder = tempfile.mkdtemp(prefix="memhunt-mcp-ledger-")
        try:
            for name in os.listdir("Fixtures/ledgers/seed000"):
                shutil.copy(os.path.join("Fixtures/ledgers/seed000", name), folder)
            ledger = os.path.join(folder, "ledger.yaml")
            added = await client.call_tool(
                "ledger_add",
                {"ledger": ledger, "kind": "hypothesis", "id": "renderer-count", "statement": "renderers cost memory"},
            )
            check(not added.is_error, "ledger_add adds a hypothesis", text(added)[:300])
            added = await client.call_tool(
                "ledger_add",
                {
                    "ledger": ledger, "kind": "experiment", "id": "renderer-again", "tests": "renderer-count",
                    "variable": "one renderer per block", "measure": "repro.peakMB",
                    "baseline": ["measurements.json"], "baseline_label": "one-block",
                    "variant": ["measurements.json"], "variant_label": "renderer-per-block",
                },
            )
            check(not added.is_error, "ledger_add adds an experiment", text(added)[:300])
            judged = {e["id"]: e for e in added.structured_content["experiments"]}
            check(judged["renderer-again"]["verdict"] == "worse", "the new experiment is judged worse", str(judged.get("renderer-again")))
            check("623 MB → 948 MB" in judged["renderer-again"]["sentence"], "with seed 000's numbers")
            again = await client.call_tool(
                "ledger_add",
                {"ledger": ledger, "kind": "experiment", "id": "renderer-again", "tests": "renderer-count",
                 "variable": "v", "baseline": ["measurements.json"], "variant": ["measurements.json"]},
            )
            check(again.is_error and "duplicate id 'renderer-again'" in text(again), "a duplicate id is refused", text(again)[:300])
            whole = await client.call_tool("ledger_judge", {"ledger": ledger})
            verdicts = {c["id"]: c["verdict"] for c in whole.structured_content["fixes"]}
            check(verdicts == {"lazy-sentence-stack": "fix-holds"}, "ledger_judge proves the fix (102 vs 103 MB)")
        finally:
            shutil.rmtree(folder, ignore_errors=True)

        # Resources: the playbooks and the latest findings document.
        resources = await client.list_resources()
        uris = [str(r.uri) for r in resources.resources]
        check("memhunt://playbooks/memory-hunt" in uris, "the memory-hunt playbook is a resource")
        check("memhunt://findings/latest" in uris, "the latest findings document is a resource")
        yaml = await client.read_resource("memhunt://playbooks/memory-hunt")
        check("id: memory-hunt" in yaml.contents[0].text, "reading the playbook gives its YAML")
        latest = await client.read_resource("memhunt://findings/latest")
        check(json.loads(latest.contents[0].text)["schema"] == "memhunt.findings/3", "the latest findings document reads back")
        try:
            await client.read_resource("memhunt://nothing")
            check(False, "an unknown resource is an error")
        except MCPError as error:
            check(error.code == -32002, f"an unknown resource is -32002 (got {error.code})")
        try:
            await client.call_tool("nope", {})
            check(False, "an unknown tool is an error")
        except MCPError as error:
            check(error.code == -32602, f"an unknown tool is -32602 (got {error.code})")


async def legacy(binary):
    server = StdioServerParameters(command=binary, args=["mcp"], cwd=".")
    async with Client(server, mode="legacy") as client:
        check(client.session.protocol_version == "2025-11-25", f"initialize negotiates 2025-11-25 (got {client.session.protocol_version})")
        listed = await client.list_tools()
        check(sorted(tool.name for tool in listed.tools) == TOOLS, "the same tools after initialize")
        run = await client.call_tool("run", {"artifacts": ["Fixtures/justsend"], "app": "JustSend", "format": "json"})
        check(run.structured_content["facts"]["jetsam.app.peakMB"] == 725, "run after initialize")
        await client.send_ping()
        print("ok: ping")


def malformed(binary):
    """Raw lines, as a broken client sends them: each answered with its JSON-RPC error, and the server serves on."""
    lines = [
        "garbage{",
        '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":"Fixtures"}}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[1]}',
        '{"jsonrpc":"1.0","id":4,"method":"ping"}',
        '[{"jsonrpc":"2.0","id":5,"method":"ping"}]',
        '{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}}',
        '{"jsonrpc":"2.0","id":8,"method":"ping"}',
    ]
    done = subprocess.run(
        [binary, "mcp"], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    check(done.returncode == 0, "the server ends at the end of its input, exit 0")
    check(len(answers) == 9, f"nine answers to nine requests and one notification (got {len(answers)})")
    # Answered as they finish, not in order (JSON-RPC ties an answer to its request by id): read by id.
    by_id = {a["id"]: a for a in answers if a["id"] is not None}
    unread = sorted(a.get("error", {}).get("code") for a in answers if a["id"] is None)
    code = lambda i: by_id.get(i, {}).get("error", {}).get("code")
    codes = [code(i) for i in (1, 2, 3, 4)]
    check(unread == [-32700, -32600] and codes == [-32601, -32602, -32602, -32600],
          f"parse, method, params, request errors (got {unread} without an id, {codes} for ids 1-4)")
    check(sorted(by_id) == [1, 2, 3, 4, 6, 7, 8], "errors carry the request's id (null when unreadable)")
    check(by_id[6]["result"]["protocolVersion"] == "2025-11-25", "an unknown revision is answered with the latest")
    check(code(7) == -32022 and "2026-07-28" in by_id[7]["error"]["data"]["supported"], "an unknown envelope revision is -32022")
    check(by_id[8] == {"jsonrpc": "2.0", "id": 8, "result": {}}, "and the server still answers a ping")


def main():
    binary = sys.argv[1]
    try:
        asyncio.run(modern(binary))
        asyncio.run(legacy(binary))
        malformed(binary)
    except Failed as failure:
        print("FAILED:", failure, file=sys.stderr)
        sys.exit(1)
    except BaseExceptionGroup as group:  # the SDK's task groups wrap what failed inside them
        failed = group.subgroup(Failed)
        while failed is not None and isinstance(failed, BaseExceptionGroup):
            failed = failed.exceptions[0]
        if failed is None:
            raise
        print("FAILED:", failed, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
