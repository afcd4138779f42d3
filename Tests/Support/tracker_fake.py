#!/usr/bin/env python3
"""A loopback fake of GitHub's issues API and of a webhook receiver, for MemhuntTrackersTests (stdlib only).

Usage: tracker_fake.py --token TOKEN. Prints the bound port on its first stdout line; exits when its stdin
reaches end of file. It answers with GitHub's documented request and error shapes:

  any request without User-Agent      403 {"message": "Request forbidden by administrative rules. ..."}
  a wrong or missing token            401 {"message": "Bad credentials", "documentation_url": ...}
  GET  /repos/O/R/issues/N/comments   the comments, 2 per page, with Link: <...>; rel="next"
  POST /repos/O/R/issues/N/comments   201 + Location, the comment; a body over the limit: GitHub's 422
  PATCH /repos/O/R/issues/comments/ID 200, the comment
  DELETE /repos/O/R/issues/comments/ID 204 No Content (404 when there is no such comment)
  GET  /repos/O/R/issues?labels=...   the issues (2 per page, Link)
  POST /repos/O/R/issues              201 + Location, {"number", "html_url", ...}
  PATCH /repos/O/R/issues/N           200

Repositories named for a fault: "missing" (404 Not Found), "limited" (the first POST: 429 with Retry-After:
1), "secondary" (the first POST: 403 secondary rate limit with retry-after: 1), "primary" (every POST: 403
with x-ratelimit-remaining: 0), "lost" (the first POST is done, then the connection closes without an
answer), "strict" (body limit 200 characters instead of 65,536), "big" (every POST: 413), "race" (a list lags:
it leaves out the comments of the last second, so attaches started together all look before any of them posts),
"racelocked" (as "race", and every edit of a comment: 403, as for a token that may comment but not edit).

GitLab (under /api/v4, PRIVATE-TOKEN auth: 401 {"message": "401 Unauthorized"}):

  GET  /api/v4/projects/P/issues/N/notes   the notes, newest first unless sort=asc, a system note mixed in,
                                           2 per page with X-Next-Page
  POST /api/v4/projects/P/issues/N/notes   201, the note
  PUT  /api/v4/projects/P/issues/N/notes/ID 200
  DELETE /api/v4/projects/P/issues/N/notes/ID 204 No Content (404 when there is no such note)
  POST /api/v4/projects/P/uploads          multipart field "file": 201 {"markdown": "[name](/uploads/...)"}
  projects ending in "missing" (404 {"message": "404 Project Not Found"}), "limited" (the first POST: 429
  with Retry-After: 1, {"message": {"error": "This endpoint has been requested too many times..."}}), "throttled"
  (every POST and PUT: the same 429 with Retry-After: 3600),
  "big" (uploads: 413), "lost" (the first note POST is done and its answer lost), "race" (a list of the notes
  leaves out those of the last second).

Jira (under /rest/api/2 and /rest/api/3, Basic auth with the token as the API token: 401 otherwise):

  GET  .../issue/KEY/comment         {"startAt", "maxResults", "total", "comments": [...]}, 2 per page
  POST .../issue/KEY/comment         201; v3 refuses a string body: 400 {"errorMessages":[],"errors":{"comment":
                                     "Comment body is not valid!"}}; v2 refuses an object
  PUT  .../issue/KEY/comment/ID      200
  DELETE .../issue/KEY/comment/ID    204 No Content (404 when there is no such comment)
  GET  .../issue/KEY?fields=attachment  {"fields": {"attachment": [{"id", "filename"}]}}
  POST .../issue/KEY/attachments     403 without X-Atlassian-Token: no-check; part "file"; 200 and an array of
                                     {"id", "filename"}
  DELETE .../attachment/ID           204 No Content (404 when there is no such attachment)
  keys: NOPE-* (404 "Issue does not exist or you do not have permission to see it."), LIM-* (the first
  POST: 429 with Retry-After: 1 and X-RateLimit-Reset), BIG-* (attachments: 413), RACE-* (a list of the
  comments leaves out those of the last second).
Comments carry "created_at" (GitHub, GitLab) or "created" (Jira), as the real APIs do.

With --jira-openapi DESCRIPTION (openapi-core installed), each /rest/api/3 request and its answer are checked
against Atlassian's OpenAPI description (jira_contract.py): a request it refuses is answered 400 in Jira's error
shape, and every problem, of a request or of an answer, is listed in /__state's "contract".

Requests the real APIs refuse are refused here too, with their documented shapes (../shared/research/trackers.md):
GitHub: a body that is not JSON (400 "Problems parsing JSON"), not an object (400 "Body should be a JSON object"),
a comment or issue without "body"/"title" (422 missing_field), issue number 404 (404 Not Found); GitLab: a note
body over 1,000,000 characters (400 {"message": {"note": [...]}}), issue 404 (404 {"message": "404 Issue Not
Found"}), a body that is not JSON (400 {"error": "body is invalid"}).

POST /hook records the request's headers and body (GET /__hooks lists them) and answers 204.
GET /__state answers {"comments": {"O/R#N": [bodies]}, "issues": {"O/R": [{number, title, body, labels}]},
"requests": ["METHOD PATH", ...]}.
"""

import argparse
import json
import os
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
COMMENTS = {}  # "O/R#N" -> list of {id, body}
ISSUES = {}  # "O/R" -> list of {number, title, body, labels}
REQUESTS = []
HOOKS = []
NOTES = {}  # GitLab: "P#N" -> list of {id, body, system}
UPLOADS = []
JIRA = {}  # KEY -> {"comments": [{id, body, created}], "attachments": [names], "files": [{id, filename}]}
FAULTS_USED = set()
CONTRACT = None  # jira_contract.Contract with --jira-openapi
CONTRACT_LOG = {"checked": [], "unchecked": [], "violations": []}
CONTRACT_LOCK = threading.Lock()  # its own: answers are given while LOCK is held
NEXT_ID = [1000]
DOCS = "https://docs.github.com/rest"
LAG = 1.0  # seconds a "race" list lags behind


def listed(items, lagging):
    """The items without their creation time ("t"), those of the last LAG seconds left out when lagging."""
    cutoff = time.monotonic() - LAG
    return [{k: v for k, v in i.items() if k != "t"} for i in items if not lagging or i.get("t", 0) <= cutoff]


def now(jira=False):
    stamp = time.time()
    if jira:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp)) + ".%03d+0000" % int(stamp % 1 * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, payload=None, headers=None):
        body = b"" if payload is None else json.dumps(payload).encode()
        check = getattr(self, "contract_answer", None)
        if check is not None:
            self.contract_answer = None
            given = dict(headers or {})
            if payload is not None:
                given["Content-Type"] = "application/json; charset=utf-8"
            check(status, given, body)
        # One request per connection (see drop_proxy.py): libcurl silently re-sends on a reused connection.
        self.close_connection = True
        self.send_response(status)
        self.send_header("Connection", "close")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if payload is not None:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def page(self, items, query, base):
        per = min(int(query.get("per_page", ["30"])[0]), 2)
        number = int(query.get("page", ["1"])[0])
        chunk = items[(number - 1) * per : number * per]
        headers = {}
        if number * per < len(items):
            q = dict((k, v[0]) for k, v in query.items())
            q["page"] = str(number + 1)
            headers["Link"] = f'<http://127.0.0.1:{self.server.server_address[1]}{base}?{urllib.parse.urlencode(q)}>; rel="next"'
        self.answer(200, chunk, headers)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = [p for p in url.path.split("/") if p]
        with LOCK:
            REQUESTS.append(f"{self.command} {url.path}")
        if url.path == "/__state":
            with LOCK:
                state = {
                    "comments": {k: [c["body"] for c in v] for k, v in COMMENTS.items()},
                    "issues": ISSUES,
                    "requests": REQUESTS,
                    "notes": {k: [n["body"] for n in v if not n["system"]] for k, v in NOTES.items()},
                    "uploads": UPLOADS,
                    "jira": JIRA,
                    "contract": json.loads(json.dumps(CONTRACT_LOG)),
                }
            return self.answer(200, state)
        if url.path == "/__hooks":
            with LOCK:
                return self.answer(200, HOOKS)
        if url.path == "/hook" and self.command == "POST":
            with LOCK:
                HOOKS.append({"headers": dict(self.headers.items()), "body": raw.decode("utf-8", "replace")})
            return self.answer(204)
        if url.path.startswith("/rest/api/"):
            if CONTRACT is not None and url.path.startswith("/rest/api/3/"):
                problems = self.contract_request(url, raw)
                if problems:
                    self.contract_answer = None  # the refusal is the contract's, not an answer of Jira's to check
                    return self.answer(400, {"errorMessages": problems, "errors": {}})
            return self.jira(url, query, raw)
        if url.path.startswith("/api/v4/"):
            return self.gitlab(url, query, raw)
        if not self.headers.get("User-Agent"):
            return self.answer(403, {"message": "Request forbidden by administrative rules. Please make sure your request has a User-Agent header."})
        auth = self.headers.get("Authorization", "")
        if auth not in (f"Bearer {self.server.token}", f"token {self.server.token}"):
            return self.answer(401, {"message": "Bad credentials", "documentation_url": DOCS})
        if len(parts) < 3 or parts[0] != "repos":
            return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})
        repo = f"{parts[1]}/{parts[2]}"
        name = parts[2]
        if name == "missing":
            return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})
        mutating = self.command in ("POST", "PATCH")
        if mutating and name == "primary":
            return self.answer(403, {"message": "API rate limit exceeded for user ID 1234.", "documentation_url": DOCS},
                               {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "9999999999"})
        if mutating and name == "big":
            return self.answer(413, {"message": "Payload Too Large"})
        with LOCK:
            first = mutating and name not in FAULTS_USED
            if first:
                FAULTS_USED.add(name)
        if first and name == "limited":
            return self.answer(429, {"message": "You have exceeded a secondary rate limit.", "documentation_url": DOCS},
                               {"Retry-After": "1"})
        if first and name == "secondary":
            return self.answer(403, {"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", "documentation_url": DOCS},
                               {"retry-after": "1"})
        if mutating:
            try:
                payload = json.loads(raw) if raw else None
            except ValueError:
                return self.answer(400, {"message": "Problems parsing JSON", "documentation_url": DOCS})
            if not isinstance(payload, dict):
                return self.answer(400, {"message": "Body should be a JSON object", "documentation_url": DOCS})
            # A comment needs its body, a new issue its title (an edit may leave either out).
            need = "body" if parts[-1] == "comments" else "title" if parts[-1] == "issues" else None
            if need and not isinstance(payload.get(need), str):
                resource = "IssueComment" if need == "body" else "Issue"
                return self.answer(422, {"message": "Validation Failed", "errors": [{"resource": resource, "code": "missing_field", "field": need}], "documentation_url": DOCS})
        else:
            payload = {}
        if len(parts) >= 5 and parts[3] == "issues" and parts[4] == "404":
            return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})
        limit = 200 if name == "strict" else 65536
        if mutating and len(payload.get("body", "")) > limit:
            return self.answer(422, {"message": "Validation Failed", "errors": [{"resource": "IssueComment", "code": "custom", "field": "body", "message": f"body is too long (maximum is {limit} characters)"}], "documentation_url": DOCS})
        base = "http://127.0.0.1:%d" % self.server.server_address[1]
        # /repos/O/R/issues/N/comments
        if len(parts) == 6 and parts[3] == "issues" and parts[5] == "comments":
            key = f"{repo}#{parts[4]}"
            with LOCK:
                items = [dict(id=c["id"], body=c["body"], created_at=c["created_at"], html_url=f"{base}/{repo}/issues/{parts[4]}#issuecomment-{c['id']}") for c in listed(COMMENTS.get(key, []), name in ("race", "racelocked"))]
            if self.command == "GET":
                return self.page(items, query, url.path)
            if self.command == "POST":
                with LOCK:
                    NEXT_ID[0] += 1
                    comment = {"id": NEXT_ID[0], "body": payload["body"], "created_at": now(), "t": time.monotonic()}
                    COMMENTS.setdefault(key, []).append(comment)
                if first and name == "lost":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                html = f"{base}/{repo}/issues/{parts[4]}#issuecomment-{comment['id']}"
                return self.answer(201, dict(comment, html_url=html), {"Location": f"{base}/repos/{repo}/issues/comments/{comment['id']}"})
        # /repos/O/R/issues/comments/ID
        if len(parts) == 6 and parts[3] == "issues" and parts[4] == "comments" and self.command == "PATCH":
            if name == "racelocked":
                return self.answer(403, {"message": "Resource not accessible by integration", "documentation_url": DOCS})
            with LOCK:
                for comments in COMMENTS.values():
                    for c in comments:
                        if str(c["id"]) == parts[5]:
                            c["body"] = payload["body"]
                            return self.answer(200, listed([c], False)[0])
            return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})
        if len(parts) == 6 and parts[3] == "issues" and parts[4] == "comments" and self.command == "DELETE":
            with LOCK:
                for comments in COMMENTS.values():
                    for c in list(comments):
                        if str(c["id"]) == parts[5]:
                            comments.remove(c)
                            return self.answer(204)
            return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})
        # /repos/O/R/issues
        if len(parts) == 4 and parts[3] == "issues":
            if self.command == "GET":
                label = query.get("labels", [""])[0]
                with LOCK:
                    items = [dict(i, html_url=f"{base}/{repo}/issues/{i['number']}") for i in ISSUES.get(repo, []) if label in i["labels"]]
                return self.page(items, query, url.path)
            if self.command == "POST":
                if not payload.get("title"):
                    return self.answer(422, {"message": "Validation Failed", "errors": [{"resource": "Issue", "code": "missing_field", "field": "title"}], "documentation_url": DOCS})
                with LOCK:
                    issues = ISSUES.setdefault(repo, [])
                    issue = {"id": 5000 + len(issues), "number": len(issues) + 1, "title": payload["title"], "body": payload.get("body", ""), "labels": payload.get("labels", [])}
                    issues.append(issue)
                if first and name == "lost":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                html = f"{base}/{repo}/issues/{issue['number']}"
                return self.answer(201, dict(issue, html_url=html), {"Location": f"{base}/repos/{repo}/issues/{issue['number']}"})
        # /repos/O/R/issues/N
        if len(parts) == 5 and parts[3] == "issues" and self.command == "PATCH":
            with LOCK:
                for i in ISSUES.get(repo, []):
                    if str(i["number"]) == parts[4]:
                        i["body"] = payload.get("body", i["body"])
                        return self.answer(200, i)
        return self.answer(404, {"message": "Not Found", "documentation_url": DOCS})

    def contract_request(self, url, raw):
        """The request's problems against the description; its answer is checked when it is given."""
        shown = f"{self.command} {url.path}"
        name, problems = CONTRACT.check_request(self.command, url.path, url.query, self.headers, raw)
        with CONTRACT_LOCK:
            CONTRACT_LOG["checked" if name else "unchecked"].append(name or shown)
            CONTRACT_LOG["violations"] += [f"request {shown}: {p}" for p in problems]
        if name is None:
            return []
        method, path, query, headers = self.command, url.path, url.query, dict(self.headers.items())

        def answered(status, answer_headers, body):
            found = CONTRACT.check_response(method, path, query, headers, raw, status, answer_headers, body)
            with CONTRACT_LOCK:
                CONTRACT_LOG["violations"] += [f"answer {status} to {shown}: {p}" for p in found]

        self.contract_answer = answered
        return problems

    def jira(self, url, query, raw):
        import base64
        auth = self.headers.get("Authorization", "")
        expected = "Basic " + base64.b64encode(f"dev@example.com:{self.server.token}".encode()).decode()
        if auth != expected:
            return self.answer(401, {"errorMessages": ["You are not authenticated. Authentication required to perform this operation."], "errors": {}})
        parts = url.path.split("/")[3:]  # ["2"|"3", "issue", KEY, ...]
        if len(parts) == 3 and parts[1] == "attachment" and self.command == "DELETE":
            with LOCK:
                for issue in JIRA.values():
                    for f in list(issue["files"]):
                        if f["id"] == parts[2]:
                            issue["files"].remove(f)
                            issue["attachments"] = [g["filename"] for g in issue["files"]]
                            return self.answer(204)
            return self.answer(404, {"errorMessages": ["The attachment does not exist."], "errors": {}})
        version, key, rest = parts[0], parts[2], parts[3:]
        if key.startswith("NOPE-"):
            return self.answer(404, {"errorMessages": ["Issue does not exist or you do not have permission to see it."], "errors": {}})
        mutating = self.command in ("POST", "PUT")
        with LOCK:
            first = mutating and ("jira:" + key) not in FAULTS_USED
            if first:
                FAULTS_USED.add("jira:" + key)
            issue = JIRA.setdefault(key, {"comments": [], "attachments": [], "files": []})
        if first and key.startswith("LIM-"):
            return self.answer(429, {"errorMessages": ["Rate limit exceeded."], "errors": {}}, {"Retry-After": "1", "X-RateLimit-Reset": "2026-01-01T00:00Z"})
        if rest == [] and self.command == "GET":
            with LOCK:
                files = [dict(f) for f in issue["files"]]
            return self.answer(200, {"key": key, "fields": {"attachment": files}})
        if rest == ["attachments"] and self.command == "POST":
            if self.headers.get("X-Atlassian-Token") != "no-check":
                return self.answer(403, {"errorMessages": ["XSRF check failed"], "errors": {}})
            if key.startswith("BIG-"):
                return self.answer(413, {"errorMessages": ["The attachment is too large."], "errors": {}})
            text = raw.decode("utf-8", "replace")
            names = []
            for chunk in text.split('Content-Disposition: form-data; ')[1:]:
                if chunk.startswith('name="file"') and 'filename="' in chunk:
                    names.append(chunk.split('filename="', 1)[1].split('"', 1)[0])
            if not names:
                return self.answer(400, {"errorMessages": ["no file part"], "errors": {}})
            with LOCK:
                added = []
                for n in names:
                    NEXT_ID[0] += 1
                    added.append({"id": str(NEXT_ID[0]), "filename": n})
                issue["files"] += added
                issue["attachments"] = [f["filename"] for f in issue["files"]]
            return self.answer(200, added)
        if rest and rest[0] == "comment":
            if self.command == "GET":
                start = int(query.get("startAt", ["0"])[0])
                with LOCK:
                    comments = listed(issue["comments"], key.startswith("RACE-"))
                return self.answer(200, {"startAt": start, "maxResults": 2, "total": len(comments), "comments": comments[start:start + 2]})
            if self.command == "DELETE" and len(rest) == 2:
                with LOCK:
                    for comment in list(issue["comments"]):
                        if comment["id"] == rest[1]:
                            issue["comments"].remove(comment)
                            return self.answer(204)
                return self.answer(404, {"errorMessages": ["Can not find a comment for the id: %s." % rest[1]], "errors": {}})
            payload = json.loads(raw) if raw else {}
            body = payload.get("body")
            if version == "3" and not isinstance(body, dict):
                return self.answer(400, {"errorMessages": [], "errors": {"comment": "Comment body is not valid!"}})
            if version == "2" and not isinstance(body, str):
                return self.answer(400, {"errorMessages": [], "errors": {"comment": "Comment body can not be empty!"}})
            if self.command == "POST" and len(rest) == 1:
                with LOCK:
                    NEXT_ID[0] += 1
                    comment = {"id": str(NEXT_ID[0]), "body": body, "created": now(jira=True), "t": time.monotonic()}
                    issue["comments"].append(comment)
                return self.answer(201, listed([comment], False)[0])
            if self.command == "PUT" and len(rest) == 2:
                with LOCK:
                    for comment in issue["comments"]:
                        if comment["id"] == rest[1]:
                            comment["body"] = body
                            return self.answer(200, listed([comment], False)[0])
        return self.answer(404, {"errorMessages": ["Not found"], "errors": {}})

    def gitlab(self, url, query, raw):
        if self.headers.get("PRIVATE-TOKEN") != self.server.token:
            return self.answer(401, {"message": "401 Unauthorized"})
        path = url.path[len("/api/v4/projects/"):]
        project, _, rest = path.partition("/")
        project = urllib.parse.unquote(project)
        parts = rest.split("/")
        mutating = self.command in ("POST", "PUT")
        if project.endswith("missing"):
            return self.answer(404, {"message": "404 Project Not Found"})
        with LOCK:
            first = mutating and ("gl:" + project) not in FAULTS_USED
            if first:
                FAULTS_USED.add("gl:" + project)
        if first and project.endswith("limited"):
            return self.answer(429, {"message": {"error": "This endpoint has been requested too many times. Try again later."}}, {"Retry-After": "1"})
        if mutating and project.endswith("throttled"):
            return self.answer(429, {"message": {"error": "This endpoint has been requested too many times. Try again later."}}, {"Retry-After": "3600"})
        if parts == ["uploads"] and self.command == "POST":
            if project.endswith("big"):
                return self.answer(413, {"message": "413 Request Entity Too Large"})
            marker = b'filename="'
            start = raw.find(marker)
            name = raw[start + len(marker): raw.find(b'"', start + len(marker))].decode() if start >= 0 else ""
            if 'name="file"' not in raw.decode("utf-8", "replace") or not name:
                return self.answer(400, {"message": "400 (Bad request) \"file\" not given"})
            with LOCK:
                NEXT_ID[0] += 1
                secret = "s%d" % NEXT_ID[0]
                UPLOADS.append(name)
            return self.answer(201, {"id": NEXT_ID[0], "alt": name, "url": f"/uploads/{secret}/{name}", "markdown": f"[{name}](/uploads/{secret}/{name})"})
        if len(parts) >= 3 and parts[0] == "issues" and parts[2] == "notes":
            key = f"{project}#{parts[1]}"
            if parts[1] == "404":
                return self.answer(404, {"message": "404 Issue Not Found"})
            with LOCK:
                notes = NOTES.setdefault(key, [{"id": 1, "body": "changed the description", "system": True}])
            if self.command == "GET" and len(parts) == 3:
                with LOCK:
                    notes = listed(NOTES[key], project.endswith("race"))
                ordered = notes if query.get("sort", ["desc"])[0] == "asc" else list(reversed(notes))
                per = min(int(query.get("per_page", ["20"])[0]), 2)
                number = int(query.get("page", ["1"])[0])
                headers = {"X-Next-Page": str(number + 1) if number * per < len(ordered) else ""}
                return self.answer(200, ordered[(number - 1) * per: number * per], headers)
            if self.command == "DELETE" and len(parts) == 4:
                with LOCK:
                    for note in list(NOTES[key]):
                        if str(note["id"]) == parts[3] and not note["system"]:
                            NOTES[key].remove(note)
                            return self.answer(204)
                return self.answer(404, {"message": "404 Note Not Found"})
            try:
                payload = json.loads(raw) if raw else {}
            except ValueError:
                return self.answer(400, {"error": "body is invalid"})
            if not isinstance(payload, dict) or not payload.get("body"):
                return self.answer(400, {"message": "400 (Bad request) \"body\" not given"})
            if len(payload["body"]) > 1_000_000:
                return self.answer(400, {"message": {"note": ["is too long (maximum is 1000000 characters)"]}})
            if self.command == "POST" and len(parts) == 3:
                with LOCK:
                    NEXT_ID[0] += 1
                    note = {"id": NEXT_ID[0], "body": payload["body"], "system": False, "created_at": now(), "t": time.monotonic()}
                    NOTES[key].append(note)
                if first and project.endswith("lost"):
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                return self.answer(201, listed([note], False)[0])
            if self.command == "PUT" and len(parts) == 4:
                with LOCK:
                    for note in notes:
                        if str(note["id"]) == parts[3]:
                            note["body"] = payload["body"]
                            return self.answer(200, listed([note], False)[0])
        return self.answer(404, {"message": "404 Not found"})

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    parser.add_argument("--jira-openapi", help="check Jira v3 requests and answers against this OpenAPI description")
    args = parser.parse_args()
    if args.jira_openapi:
        global CONTRACT
        import warnings

        from jira_contract import Contract

        warnings.filterwarnings("ignore", "Unsupported scheme type")  # OAuth2 beside basic auth: not checked
        CONTRACT = Contract(args.jira_openapi)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.token = args.token
    print(server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
