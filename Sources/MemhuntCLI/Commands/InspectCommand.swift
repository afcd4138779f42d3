import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// `memhunt inspect`: the kind and facts of single artifacts, each read on its own.
struct InspectCommand {
    var command: ParsedCommand
    var console: Console

    func execute() async throws -> Memhunt.ExitStatus {
        let playbook = try playbookLoader.builtIn("memory-hunt")!.get()
        let engine = StepEngine(checks: builtInChecks, toolVersion: Memhunt.version)
        var entries: [(Artifact, Facts)] = []
        let collector = try ArtifactCollector(console: console)
        defer { collector.removeCache() }
        for artifact in await collector.collect(command.values.positionals) {
            let facts =
                artifact.status == .ok
                ? await engine.run(playbook: playbook, artifacts: [artifact], app: nil).facts : [:]
            entries.append((artifact, facts))
        }
        if command.values.string("--format") == "json" {
            let node = JSONNode.array(
                entries.map { artifact, facts in
                    guard case .object(let pairs) = FindingsDocument.artifact(artifact) else { return .null }
                    return .object(pairs + [("facts", FindingsDocument.facts(facts))])
                })
            console.stdout.write(node.rendered())
            return .success
        }
        var out = ""
        for (artifact, facts) in entries {
            out += artifact.source + "\n"
            out += "   kind: \(artifact.kind?.rawValue ?? "-")  status: \(artifact.status.rawValue)"
            if let size = artifact.size { out += "  size: \(FactValue.grouped(size)) bytes" }
            out += "\n"
            if let sha = artifact.sha256 { out += "   sha256: \(sha)\n" }
            if let error = artifact.error { out += "   error: \(error)\n" }
            for key in facts.keys.sorted() { out += "   \(key) = \(facts[key]!)\n" }
        }
        console.stdout.write(out)
        return .success
    }
}
