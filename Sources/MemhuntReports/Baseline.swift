import MemhuntCore

/// SwiftLint's baseline habit: a saved run's findings are known, so a new run reports only what is new.
extension FindingsDocument {
    /// What `--baseline` left out of a run.
    public struct BaselineInfo: Sendable, Hashable, Codable {
        /// The baseline document as given (path or `-`).
        public var source: String
        /// Findings left out because the baseline has them.
        public var suppressed: Int

        public init(source: String, suppressed: Int) {
            self.source = source
            self.suppressed = suppressed
        }
    }

    /// A finding's identity across runs: its signature (`FindingSignature`: the playbook, step, code, app,
    /// pattern and the title without its numbers), computed for a document saved before findings had one.
    public func identity(of finding: Finding) -> String {
        finding.signature ?? FindingSignature.of(finding, playbook: playbook.id, app: subject.app)
    }

    /// The document without the findings `baseline` already has (matched by identity, one for one),
    /// steps whose findings all went back to `clear`, and the counts recomputed.
    public func suppressing(_ baseline: FindingsDocument, source: String) -> FindingsDocument {
        var known: [String: Int] = [:]
        for finding in baseline.findings { known[baseline.identity(of: finding), default: 0] += 1 }
        var suppressed = 0
        var copy = self
        for index in copy.steps.indices {
            copy.steps[index].findings = copy.steps[index].findings.filter { finding in
                let id = identity(of: finding)
                guard let n = known[id], n > 0 else { return true }
                known[id] = n - 1
                suppressed += 1
                return false
            }
            if copy.steps[index].status == .finding,
                !copy.steps[index].findings.contains(where: { $0.severity >= .notice })
            {
                copy.steps[index].status = .clear
            }
        }
        copy.findings = copy.steps.flatMap(\.findings)
        copy.summary = Summary(steps: copy.steps, artifacts: copy.artifacts)
        // The verdict is of what is reported: a suppressed finding's sentence goes with it.
        copy.verdict = Verdict(
            steps: copy.steps, artifacts: copy.artifacts, subject: copy.subject, suppressed: suppressed)
        copy.baseline = BaselineInfo(source: source, suppressed: suppressed)
        return copy
    }
}
