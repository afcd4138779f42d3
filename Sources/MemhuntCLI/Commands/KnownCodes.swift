import MemhuntChecks
import MemhuntCore
import MemhuntReports

extension FindingsDocument {
    /// Every finding code memhunt declares (the built-in checks' and the engine's), as a document keeps them
    /// for its findings: what a report's rule list (SARIF) is made of.
    static let knownCodes: [String: CodeInfo] = {
        var codes: [String: CodeInfo] = [:]
        for description in builtInChecks.map({ $0.description }) + [EngineFindings.description] {
            for code in description.codes {
                codes[code.code] = CodeInfo(
                    check: description.id, severity: code.severity, meaning: code.meaning,
                    help: description.rationale)
            }
        }
        return codes
    }()
}
