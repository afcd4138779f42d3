import Foundation
import MemhuntCore
import MemhuntReports

/// The tools of a leak's way to its fix: `classify_leaks` names the cycles of a `leaks` report or a pasted tree
/// (pattern, owner, the tree lines each rests on, the fix), and `verify_fix` judges a fix from the artifacts
/// taken before and after it (PASS, PARTIAL, FAIL or REGRESSED per pattern, growing class, growth per visit and
/// test over its ceiling).
extension MCPTools {
    static var fixTools: [JSONObject] {
        let sides =
            "Artifacts taken %@ the fix (leaks or heap reports, measurements, an xcodebuild log), or one saved "
            + "findings document of a run over them."
        return [
            tool(
                "classify_leaks", "Classify leak cycles",
                "The cycles and lone leaks of a leaks report or of a tree pasted as text: each one's pattern (or "
                    + "unknown, with its path), owner (app or a framework's, and why), the tree lines it rests on and "
                    + "the fix.",
                input: [
                    "tree": ["type": "string", "description": "leaks output or a ROOT CYCLE tree, as text."],
                    "artifacts": paths("leaks reports to classify instead of text."),
                ],
                required: [], output: ["type": "object", "required": ["cycles", "findings"]]),
            tool(
                "verify_fix", "Verify a fix",
                "Whether a fix worked, from what was taken before and after it: per leak pattern, class growing "
                    + "between heaps, growth per visit and test over its ceiling, PASS, PARTIAL, FAIL or REGRESSED, and "
                    + "the worst overall.",
                input: [
                    "before": paths(String(format: sides, "before")), "after": paths(String(format: sides, "after")),
                    "app": ["type": "string", "description": "The app under investigation."],
                ],
                required: ["before", "after"], output: ["type": "object", "required": ["fix"]]),
        ]
    }

    /// A folder of its own for one call's files, removed when the call is done.
    static func scratch() throws -> String {
        guard let folder = temporaryFolder("memhunt-mcp-fix") else {
            throw ArgumentError(message: "cannot make a folder for the call: \(String(cString: strerror(errno)))")
        }
        return folder
    }

    /// A new folder `NAME.XXXXXX` under the temporary directory (mkdtemp: only this process can have made it);
    /// nil when it cannot be made (errno says why).
    static func temporaryFolder(_ name: String) -> String? {
        var bytes = Array((NSTemporaryDirectory() + "/\(name).XXXXXX").utf8CString)
        guard mkdtemp(&bytes) != nil else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func classify(_ given: Arguments) async throws -> Result {
        try given.only(["tree", "artifacts"])
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var operands: [String] = []
        if try given.strings("artifacts") != nil { operands = try artifacts(given, "artifacts") }
        if let tree = try given.string("tree") {
            let path = folder + "/pasted.leaks.txt"
            guard FileManager.default.createFile(atPath: path, contents: Data(tree.utf8)) else {
                throw ArgumentError(message: "cannot write the tree to \(path)")
            }
            operands.append(path)
        }
        guard !operands.isEmpty else { throw ArgumentError(message: "give 'tree' (text) or 'artifacts' (files)") }
        let child = await memhunt(
            ["run", "--format=json", "--color=never", "--playbook=navigation-growth", "--"] + operands)
        guard let json = child.stdout, let document = Self.object(json) else {
            return .failure(child.failure(tool: "classify_leaks"))
        }
        // The fact the leak check declares as the leak shapes by pattern, and that check's findings: the tool names
        // no check's keys.
        let facts = document["facts"] as? JSONObject ?? [:]
        let catalog = document["factCatalog"] as? [String: JSONObject] ?? [:]
        let (key, info) =
            catalog.first { ($0.value["verifies"] as? String) == FixEvidence.leakPatterns.rawValue } ?? ("", [:])
        let check = info["check"] as? String
        let findings = (document["findings"] as? [JSONObject] ?? []).filter { $0["check"] as? String == check }
        guard facts[key] != nil || !findings.isEmpty else {
            return .failure(
                "classify_leaks: no leak tree was read"
                    + (child.stderrText.isEmpty ? " (no ROOT CYCLE or ROOT LEAK line)" : ": " + child.stderrText))
        }
        let lines = findings.map { (finding: JSONObject) -> String in
            let title = finding["title"] as? String ?? ""
            let detail = finding["detail"] as? String ?? ""
            return "- " + title + "\n  " + detail
        }
        return Result(
            text: lines.joined(separator: "\n"),
            structured: ["cycles": facts[key] ?? [JSONObject](), "findings": findings])
    }

    func verifyFix(_ given: Arguments) async throws -> Result {
        try given.only(["before", "after", "app"])
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var documents: [String] = []
        for side in ["before", "after"] {
            let operands = try artifacts(given, side)
            // One findings document is the run itself; anything else is run here.
            if operands.count == 1, operands[0].hasSuffix(".json"), FindingsInput.looksLikeJSON(operands[0]),
                (try? FindingsDocument.decode(Array(Data(contentsOf: URL(fileURLWithPath: operands[0]))))) != nil
            {
                documents.append(operands[0])
                continue
            }
            let path = folder + "/\(side).json"
            var arguments = ["run", "--format=json", "--color=never", "--playbook=navigation-growth", "-o", path]
            if let app = try given.string("app") { arguments.append("--app=\(app)") }
            let child = await memhunt(arguments + ["--"] + operands)
            guard let status = child.status, [0, 1].contains(status), FileManager.default.fileExists(atPath: path)
            else { return .failure("verify_fix: the \(side) side: " + child.failure(tool: "run")) }
            documents.append(path)
        }
        let child = await memhunt(["diff", "--format=json", "--", documents[0], documents[1]])
        guard let json = child.stdout, let diff = Self.object(json), let fix = diff["fix"] as? JSONObject else {
            return .failure(child.failure(tool: "verify_fix"))
        }
        let rows = (fix["rows"] as? [JSONObject] ?? []).map {
            "- \($0["grade"] as? String ?? "?") \($0["key"] as? String ?? "?"): \($0["text"] as? String ?? "")"
        }
        let verdict =
            (fix["verdict"] as? String).map { "Fix verdict: \($0)" }
            ?? "No verdict: the two sides share nothing a fix is verified by (leak patterns, growing classes, growth "
            + "per visit, tests over a ceiling)."
        return Result(
            text: ([verdict] + rows + [diff["verdict"] as? String ?? ""]).joined(separator: "\n"),
            structured: ["fix": fix, "verdict": diff["verdict"] ?? ""])
    }
}
