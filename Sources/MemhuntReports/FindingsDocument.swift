import MemhuntCore

/// The findings document, `memhunt.findings/1`: the stable JSON every other output derives from.
///
/// Adding keys is compatible; renaming or removing one bumps the schema to `/2`.
public enum FindingsDocument {
    public static let schema = "memhunt.findings/1"

    /// Renders a run as the findings document.
    public static func render(_ result: RunResult) -> String { node(result).rendered() }

    /// The document as a JSON tree (for reporters that embed it).
    public static func node(_ result: RunResult) -> JSONNode {
        .object([
            ("schema", .string(schema)),
            ("tool", .object([("name", .string("memhunt")), ("version", .string(result.toolVersion))])),
            (
                "playbook",
                .object([
                    ("id", .string(result.playbook.id)), ("title", .string(result.playbook.title)),
                    ("origin", .string(result.playbook.origin)),
                ])
            ),
            ("subject", .object([("app", .string(result.subject.app)), ("origin", .string(result.subject.origin))])),
            ("facts", facts(result.facts)),
            ("steps", .array(result.steps.map(step))),
            ("findings", .array(result.findings.map(finding))),
            ("artifacts", .array(result.artifacts.map(artifact))),
        ])
    }

    public static func facts(_ facts: Facts) -> JSONNode {
        .object(facts.keys.sorted().map { ($0, JSONNode(facts[$0]!)) })
    }

    static func step(_ step: StepResult) -> JSONNode {
        var pairs: [(String, JSONNode)] = [
            ("number", .int(step.number)),
            ("id", .string(step.step.id)),
            ("title", .string(step.step.title)),
            ("status", .string(step.status.rawValue)),
            ("facts", facts(step.facts)),
            ("findings", .array(step.findings.map(finding))),
        ]
        if step.status == .noArtifact {
            pairs.append(("guidance", .string(step.step.collect)))
        }
        return .object(pairs)
    }

    static func finding(_ finding: Finding) -> JSONNode {
        .object([
            ("step", .string(finding.step)),
            ("check", .string(finding.check)),
            ("severity", .string(finding.severity.rawValue)),
            ("title", .string(finding.title)),
            ("detail", .string(finding.detail)),
            (
                "evidence",
                .array(
                    finding.evidence.map { evidence in
                        var pairs: [(String, JSONNode)] = [("source", .string(evidence.source))]
                        if let pointer = evidence.pointer { pairs.append(("pointer", .string(pointer))) }
                        if let line = evidence.line { pairs.append(("line", .int(line))) }
                        return .object(pairs)
                    })
            ),
            ("next", .string(finding.next)),
        ])
    }

    public static func artifact(_ artifact: Artifact) -> JSONNode {
        var pairs: [(String, JSONNode)] = [
            ("source", .string(artifact.source)),
            ("kind", .string(artifact.kind?.rawValue)),
            ("sha256", .string(artifact.sha256)),
            ("size", artifact.size.map { .int($0) } ?? .null),
            ("status", .string(artifact.status.rawValue)),
            ("error", .string(artifact.error)),
        ]
        if artifact.finalURL != nil || artifact.httpStatus != nil {
            pairs.append(("finalURL", .string(artifact.finalURL)))
            pairs.append(("httpStatus", artifact.httpStatus.map { .int($0) } ?? .null))
        }
        return .object(pairs)
    }
}
