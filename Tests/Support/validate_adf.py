#!/usr/bin/env python3
"""Validates an Atlassian Document Format document (Jira REST API v3 comment bodies) in the file named by its argument (or read from stdin).

The Jira OpenAPI subset in ../shared/research/openapi/jira-cloud-v3-subset.json types a comment's `body` only as
"the comment text in Atlassian Document Format" (no schema), so this checks the structure the public ADF
specification gives (developer.atlassian.com/cloud/jira/platform/apis/document/structure/ and its node and mark
pages): the node types, where each may appear, their required and allowed attributes, the marks a text node may
carry and the mark combinations the spec forbids. It covers the nodes memhunt writes and the common others;
an unknown node type is an error.

Prints "ok" and exits 0, or prints one line per problem (a JSON path and what is wrong) and exits 1.
"""

import json
import sys

INLINE = {"text", "hardBreak", "mention", "emoji", "date", "status", "inlineCard", "mediaInline"}
# Blocks allowed at the top of a document.
TOP = {"paragraph", "heading", "bulletList", "orderedList", "codeBlock", "blockquote", "panel", "rule", "table",
       "mediaGroup", "mediaSingle", "expand", "decisionList", "taskList", "blockCard", "embedCard", "extension",
       "bodiedExtension", "layoutSection"}
CELL = {"paragraph", "panel", "blockquote", "orderedList", "bulletList", "rule", "heading", "codeBlock",
        "mediaGroup", "mediaSingle", "decisionList", "taskList", "blockCard", "embedCard", "extension",
        "nestedExpand"}
PANEL = {"paragraph", "heading", "bulletList", "orderedList", "blockCard", "mediaGroup", "mediaSingle",
         "codeBlock", "taskList", "rule", "decisionList", "extension"}
LIST_ITEM = {"paragraph", "bulletList", "orderedList", "codeBlock", "mediaSingle", "taskList", "extension"}
QUOTE = {"paragraph", "orderedList", "bulletList", "codeBlock", "mediaSingle", "mediaGroup", "extension"}
EXPAND = TOP - {"expand", "layoutSection"} | {"nestedExpand"}

# node type -> (allowed children or None for a leaf, required attrs, allowed attrs, whether content is required)
NODES = {
    "doc": (TOP, set(), set(), True),
    "paragraph": (INLINE, set(), {"localId"}, False),
    "heading": (INLINE, {"level"}, {"level", "localId"}, False),
    "bulletList": ({"listItem"}, set(), {"localId"}, True),
    "orderedList": ({"listItem"}, set(), {"order", "localId"}, True),
    "listItem": (LIST_ITEM, set(), {"localId"}, True),
    "codeBlock": ({"text"}, set(), {"language", "localId"}, False),
    "blockquote": (QUOTE, set(), {"localId"}, True),
    "panel": (PANEL, {"panelType"}, {"panelType", "panelIcon", "panelIconId", "panelIconText", "panelColor",
                                      "localId"}, True),
    "rule": (None, set(), {"localId"}, False),
    "table": ({"tableRow"}, set(), {"isNumberColumnEnabled", "layout", "width", "displayMode", "localId"}, True),
    "tableRow": ({"tableHeader", "tableCell"}, set(), {"localId"}, True),
    "tableHeader": (CELL, set(), {"colspan", "rowspan", "colwidth", "background", "localId"}, True),
    "tableCell": (CELL, set(), {"colspan", "rowspan", "colwidth", "background", "localId"}, True),
    "expand": (EXPAND, set(), {"title", "localId"}, True),
    "nestedExpand": (CELL - {"nestedExpand"}, set(), {"title", "localId"}, True),
    "text": (None, set(), set(), False),
    "hardBreak": (None, set(), {"text", "localId"}, False),
    "status": (None, {"text", "color"}, {"text", "color", "localId", "style"}, False),
    "mention": (None, {"id"}, {"id", "text", "accessLevel", "userType", "localId"}, False),
    "emoji": (None, {"shortName"}, {"shortName", "id", "text", "localId"}, False),
    "date": (None, {"timestamp"}, {"timestamp", "localId"}, False),
    "inlineCard": (None, set(), {"url", "data", "localId"}, False),
}
MARKS = {
    "code": set(), "em": set(), "strike": set(), "strong": set(), "underline": set(),
    "link": {"href", "title", "id", "collection", "occurrenceKey", "localId"},
    "subsup": {"type"}, "textColor": {"color"}, "backgroundColor": {"color"},
}
REQUIRED_MARK_ATTRS = {"link": {"href"}, "subsup": {"type"}, "textColor": {"color"}, "backgroundColor": {"color"}}
PANEL_TYPES = {"info", "note", "tip", "warning", "error", "success", "custom"}
STATUS_COLORS = {"neutral", "purple", "blue", "red", "yellow", "green"}
LAYOUTS = {"default", "full-width", "wide", "center", "align-end", "align-start"}


def check(node, path, problems, parent=None):
    if not isinstance(node, dict):
        problems.append(f"{path}: not an object")
        return
    kind = node.get("type")
    if kind not in NODES:
        problems.append(f"{path}: unknown node type {kind!r}")
        return
    children, required, allowed, needs_content = NODES[kind]
    for key in node:
        if key not in ("type", "content", "attrs", "marks", "text", "version"):
            problems.append(f"{path}: {kind} has an unknown key {key!r}")
    if kind == "doc":
        if node.get("version") != 1:
            problems.append(f"{path}: doc version must be 1")
    elif "version" in node:
        problems.append(f"{path}: only doc has a version")
    attrs = node.get("attrs", {})
    if not isinstance(attrs, dict):
        problems.append(f"{path}: attrs is not an object")
        attrs = {}
    for key in required - set(attrs):
        problems.append(f"{path}: {kind} needs attrs.{key}")
    for key in set(attrs) - allowed:
        problems.append(f"{path}: {kind} does not take attrs.{key}")
    if kind == "heading" and attrs.get("level") not in range(1, 7):
        problems.append(f"{path}: heading level must be 1 to 6")
    if kind == "panel" and attrs.get("panelType") not in PANEL_TYPES:
        problems.append(f"{path}: panelType {attrs.get('panelType')!r} is not one of {sorted(PANEL_TYPES)}")
    if kind == "status":
        if attrs.get("color") not in STATUS_COLORS:
            problems.append(f"{path}: status color {attrs.get('color')!r} is not one of {sorted(STATUS_COLORS)}")
        if not isinstance(attrs.get("text"), str) or not attrs.get("text"):
            problems.append(f"{path}: status text must be a non-empty string")
    if kind == "table" and "layout" in attrs and attrs["layout"] not in LAYOUTS:
        problems.append(f"{path}: table layout {attrs['layout']!r}")
    if kind == "table" and "isNumberColumnEnabled" in attrs and not isinstance(attrs["isNumberColumnEnabled"], bool):
        problems.append(f"{path}: isNumberColumnEnabled must be a boolean")
    if kind == "text":
        if not isinstance(node.get("text"), str) or node.get("text") == "":
            problems.append(f"{path}: a text node needs non-empty text")
        marks = node.get("marks", [])
        names = []
        for i, mark in enumerate(marks if isinstance(marks, list) else []):
            name = mark.get("type") if isinstance(mark, dict) else None
            if name not in MARKS:
                problems.append(f"{path}.marks[{i}]: unknown mark {name!r}")
                continue
            names.append(name)
            mark_attrs = mark.get("attrs", {})
            for key in REQUIRED_MARK_ATTRS.get(name, set()) - set(mark_attrs):
                problems.append(f"{path}.marks[{i}]: {name} needs attrs.{key}")
            for key in set(mark_attrs) - MARKS[name]:
                problems.append(f"{path}.marks[{i}]: {name} does not take attrs.{key}")
            if name == "textColor" and not str(mark_attrs.get("color", "")).startswith("#"):
                problems.append(f"{path}.marks[{i}]: textColor needs a #rrggbb color")
        if len(names) != len(set(names)):
            problems.append(f"{path}: a mark appears twice")
        # The code mark combines only with link (ADF: marks).
        if "code" in names and set(names) - {"code", "link"}:
            problems.append(f"{path}: code combines only with link, not {sorted(set(names) - {'code', 'link'})}")
        if parent == "codeBlock" and names:
            problems.append(f"{path}: text in a codeBlock takes no marks")
    elif "marks" in node and kind not in ("paragraph", "heading"):
        problems.append(f"{path}: {kind} takes no marks")
    elif "text" in node:
        problems.append(f"{path}: {kind} has no text")
    content = node.get("content")
    if children is None:
        if content is not None:
            problems.append(f"{path}: {kind} has no content")
        return
    if content is None:
        if needs_content:
            problems.append(f"{path}: {kind} needs content")
        return
    if not isinstance(content, list):
        problems.append(f"{path}: content is not an array")
        return
    if needs_content and not content:
        problems.append(f"{path}: {kind} needs at least one child")
    for i, child in enumerate(content):
        child_kind = child.get("type") if isinstance(child, dict) else None
        if child_kind not in children:
            problems.append(f"{path}.content[{i}]: {child_kind!r} may not be inside {kind}")
        check(child, f"{path}.content[{i}]", problems, kind)
    if kind == "listItem" and content and content[0].get("type") not in ("paragraph", "mediaSingle", "codeBlock"):
        problems.append(f"{path}: a listItem starts with a paragraph, mediaSingle or codeBlock")


def main():
    document = json.load(open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin)
    problems = []
    if not isinstance(document, dict) or document.get("type") != "doc":
        problems.append("$: the top node must be a doc")
    else:
        check(document, "$", problems)
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
