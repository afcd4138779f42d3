#!/usr/bin/env python3
"""Jira Cloud's REST API v3 contract, from Atlassian's OpenAPI description, for tracker_fake.py (openapi-core).

`Contract(path)` loads the description (Tests/Support/openapi/jira-cloud-v3-subset.json) and checks each request
to /rest/api/3 and the fake's answer to it:

  requests   path, query, headers and body against the operation (openapi-core's request validation), and the
             rules the description states in words: addAttachment needs `X-Atlassian-Token: no-check` and every
             multipart part named `file`; a JSON body must be sent as application/json
  responses  the status among the operation's described ones (429 is Atlassian's rate-limiting answer on every
             operation: it must carry Retry-After), the body against the status's schema, and an error's body in
             Jira's error shape {"errorMessages": [string], "errors": {field: string}}

Timestamps: the description's own examples (and Jira) write offsets as +0000, which its `format: date-time`
(RFC 3339: +00:00) refuses; an answer's timestamps are read with the examples' form allowed.

An operation the subset does not describe (DELETE /attachment/ID) is not checked, and is listed as such.
Run as a program, it checks one request given as JSON on stdin ({"method", "path", "headers", "body"}) and
prints its problems, one per line (none: nothing), for a test to show the validator refuses a wrong body.
"""

import json
import re
import sys
import urllib.parse

from openapi_core import OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

SERVER = "https://your-domain.atlassian.net"
# "2026-12-02T07:30:21.207+0000": the offset as Jira and the description's examples write it.
JIRA_OFFSET = re.compile(rb'(\d\dT\d\d:\d\d:\d\d(?:\.\d+)?[+-])(\d\d)(\d\d)"')


class _Request:
    """openapi-core's request protocol over what the fake received."""

    def __init__(self, method, path, query, headers, body):
        self.host_url = SERVER
        self.path = path
        self.full_url_pattern = SERVER + path
        self.method = method.lower()
        self.body = body or b""
        self.content_type = headers.get("Content-Type", "") if body else ""
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(urllib.parse.parse_qsl(query or "", keep_blank_values=True)),
            header=Headers(list(headers.items())),
            cookie=ImmutableMultiDict(),
        )


class _Response:
    def __init__(self, status, headers, body):
        self.status_code = status
        self.data = body or b""
        self.headers = Headers(list(headers.items()))
        self.content_type = self.headers.get("Content-Type", "application/json") if body else ""


def describe(error):
    """openapi-core's error with the schema errors under it, in one line."""
    parts = [str(error)]
    cause = error.__cause__
    while cause is not None:
        for schema_error in getattr(cause, "schema_errors", []) or []:
            where = "/".join(str(p) for p in schema_error.absolute_path)
            parts.append((where + ": " if where else "") + schema_error.message)
        if not getattr(cause, "schema_errors", None) and str(cause) and str(cause) not in parts:
            parts.append(str(cause))
        cause = cause.__cause__
    return "; ".join(parts)


class Contract:
    def __init__(self, path):
        with open(path) as handle:
            self.spec = json.load(handle)
        self.api = OpenAPI.from_dict(self.spec)
        self.templates = []
        for template, operations in self.spec["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
            self.templates.append((re.compile(pattern), template, operations))

    def operation(self, method, path):
        """(template, operation) of the description for this request, or None."""
        for pattern, template, operations in self.templates:
            if pattern.match(path) and method.lower() in operations:
                return template, operations[method.lower()]
        return None

    def check_request(self, method, path, query, headers, body):
        """(operation id or None when the description does not have it, [problems])."""
        found = self.operation(method, path)
        if found is None:
            return None, []
        template, operation = found
        name = operation.get("operationId", method + " " + template)
        problems = []
        prose = operation.get("description", "")
        if "multipart/form-data" in operation.get("requestBody", {}).get("content", {}):
            # openapi-core cannot read a multipart body against a binary string schema: the description's words.
            if "X-Atlassian-Token: no-check" in prose and headers.get("X-Atlassian-Token") != "no-check":
                problems.append(f"{name}: the description requires the header X-Atlassian-Token: no-check")
            kind = headers.get("Content-Type", "")
            if not kind.startswith("multipart/form-data"):
                problems.append(f"{name}: the body must be multipart/form-data, not {kind or 'absent'}")
            names = re.findall(rb'Content-Disposition: form-data; name="([^"]*)"', body or b"")
            if "must be `file`" in prose and (not names or any(n != b"file" for n in names)):
                problems.append(f"{name}: every part must be named file (got {[n.decode() for n in names]})")
            request = _Request(method, path, query, headers, b"")
        else:
            request = _Request(method, path, query, headers, body)
            if body and not headers.get("Content-Type", "").startswith("application/json"):
                problems.append(f"{name}: a JSON body must be sent as application/json")
        try:
            self.api.validate_request(request)
        except Exception as error:  # openapi-core raises one error type per kind of problem
            problems.append(f"{name}: {describe(error)}")
        return name, problems

    def check_response(self, method, path, query, headers, body, status, answer_headers, answer):
        """[problems] of the fake's answer to a request the description has."""
        found = self.operation(method, path)
        if found is None:
            return []
        template, operation = found
        name = operation.get("operationId", method + " " + template)
        problems = []
        if status >= 400 and answer:
            try:
                shape = json.loads(answer)
            except ValueError:
                shape = None
            if not (
                isinstance(shape, dict)
                and isinstance(shape.get("errorMessages"), list)
                and all(isinstance(m, str) for m in shape["errorMessages"])
                and isinstance(shape.get("errors"), dict)
                and all(isinstance(v, str) for v in shape["errors"].values())
            ):
                problems.append(f"{name}: HTTP {status} is not in Jira's error shape: {answer[:200]!r}")
        if status == 429:
            if "Retry-After" not in answer_headers:
                problems.append(f"{name}: a 429 without Retry-After")
            return problems
        if str(status) not in operation.get("responses", {}):
            problems.append(f"{name}: HTTP {status} is not an answer the description gives")
            return problems
        if status >= 400:
            return problems  # The description gives no schema for errors; the shape above is Jira's.
        request = _Request(method, path, query, headers, b"" if "multipart" in headers.get("Content-Type", "") else body)
        answer = JIRA_OFFSET.sub(rb'\1\2:\3"', answer or b"")
        try:
            self.api.validate_response(request, _Response(status, answer_headers, answer))
        except Exception as error:
            problems.append(f"{name}: the answer: {describe(error)}")
        return problems


def main():
    """Checks one request read as JSON on stdin; prints each problem on a line."""
    contract = Contract(sys.argv[1])
    given = json.load(sys.stdin)
    body = given.get("body")
    raw = body.encode() if isinstance(body, str) else (json.dumps(body).encode() if body is not None else b"")
    url = urllib.parse.urlsplit(given["path"])
    name, problems = contract.check_request(given["method"], url.path, url.query, given.get("headers", {}), raw)
    print(json.dumps({"operation": name, "problems": problems}))


if __name__ == "__main__":
    main()
