import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntTestSupport
import Testing

/// Every fixture folder and every real-world file, through every shipped playbook: no run may contradict
/// itself, speak for the subject from another app's artifact, or drop a value it could not read in silence.
/// Contradictions are found by finding codes, never by title text.
@Suite struct ConsistencyTests {
    static let playbooks = ["memory-hunt", "widget-budget", "layout-freeze", "navigation-growth"]

    /// Words that assert an absence: never said while a file that could hold it went unread.
    static let absences = [
        "for lack of artifacts", "among the artifacts", "say nothing of", "no sign that it ended", "lists it alive",
    ]

    /// Codes that say the subject ended, in any way.
    static let ended: Set<String> = [
        "crash-report.ended", "crash-report.ended-without-report", "jetsam-rank.killed", "metrickit-memory.exits",
    ]

    /// Every fixture folder with artifacts (not playbooks or external checks), absolute paths.
    static var fixtureFolders: [String] {
        let root = Repo.fixture("")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.sorted().filter { !["checks", "playbooks", "README.md"].contains($0) }.map { root + $0 }
    }

    /// Every file of the real-world corpus, and each of its folders as a whole.
    static var realworldInputs: [String] {
        guard let base = Repo.realworld else { return [] }
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).sorted().map {
            base + "/" + $0
        }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        return folders + LocalArtifacts.expand(folders)
    }

    @Test func fixturesNeverContradictThemselves() async throws {
        var runs = 0
        for folder in Self.fixtureFolders {
            for playbook in Self.playbooks {
                for app in [nil, "JustSend"] as [String?] {
                    // Yield between runs: on two cores this loop must not hold the test pool's threads.
                    await Task.yield()
                    let result = try await Hunt.run([folder], app: app, playbook: playbook)
                    let violations = Self.violations(result, input: folder, playbook: playbook)
                    #expect(violations.isEmpty, "\(violations)")
                    runs += 1
                }
            }
        }
        #expect(runs >= 4 * 2 * 12)
    }

    /// Across two runs, one rule: a finding the later run does not raise again is resolved only where that run
    /// measured its step and the finding was a problem (notice or above); not re-measured where the step had no
    /// artifact; no longer said where it was no problem. The verdict's count is the list's. Over the pair the
    /// diff and postmortem tests use, both ways, and every fixture folder against `justsend-fixed` and itself.
    @Test func acrossRunsResolvedMeansMeasuredAgain() async throws {
        func document(_ folder: String) async throws -> FindingsDocument {
            FindingsDocument(
                try await Hunt.run([folder], app: "JustSend"), run: FindingsDocument.RunInfo(id: folder))
        }
        var pairs = [("justsend", "justsend-fixed"), ("justsend-fixed", "justsend")]
        for folder in Self.fixtureFolders.map({ ($0 as NSString).lastPathComponent }) {
            pairs += [(folder, "justsend-fixed"), (folder, folder)]
        }
        var resolvedSeen = 0
        var unmeasuredSeen = 0
        for (first, second) in pairs {
            await Task.yield()
            let before = try await document(first)
            let after = try await document(second)
            let diff = RunDiff(before: before, after: after)
            for change in diff.findings {
                let finding = change.finding
                let status = after.step(id: finding.step)?.status
                let measured = status == .clear || status == .finding
                switch change.state {
                case .resolved:
                    resolvedSeen += 1
                    #expect(measured && finding.severity >= .notice, "\(first) → \(second): \(finding.code) resolved")
                case .notRemeasured:
                    unmeasuredSeen += 1
                    #expect(!measured, "\(first) → \(second): \(finding.code) not re-measured, its step measured")
                case .noLongerSaid:
                    #expect(measured && finding.severity < .notice, "\(first) → \(second): \(finding.code)")
                case .unchanged, .new: break
                }
            }
            let resolved = diff.findings.count { $0.state == .resolved }
            // A verdict that counts resolved findings counts these (one that the fix does not hold counts none).
            if diff.verdict.contains(" resolved") {
                #expect(diff.verdict.contains(Plural.count(resolved, "finding") + " resolved"), "\(diff.verdict)")
            }
            if resolved == 0 { #expect(!diff.verdict.contains(" resolved"), "\(first) → \(second): \(diff.verdict)") }
        }
        #expect(resolvedSeen > 0 && unmeasuredSeen > 0)
    }

    /// Across the records of one run: with no subject, a value of one JetsamEvent is said as the run's only where
    /// every record read gives it (page size, process count, largestProcess), over every fixture folder, the
    /// real-world corpus's folders when present, and all the fixtures at once.
    @Test func factsOfSeveralRecordsAreSaidOnlyWhereTheyAgree() async throws {
        var checked = 0
        let inputs = Self.fixtureFolders.map { [$0] } + [Self.fixtureFolders] + (Repo.realworld.map { [[$0]] } ?? [])
        for folders in inputs {
            await Task.yield()
            let result = try await Hunt.run(folders, app: nil)
            let events = result.artifacts.compactMap { artifact -> JetsamEvent? in
                guard artifact.status == .ok, artifact.duplicateOf == nil,
                    case .jetsamEvent(let event)? = artifact.content
                else { return nil }
                return event
            }
            // With a subject (named by the artifacts themselves), the chosen record is the subject's.
            guard events.count > 1, result.subject.app == nil else { continue }
            checked += 1
            if let size = result.facts["jetsam.pageSize"] {
                #expect(events.allSatisfy { FactValue.int(Int($0.pageSize)) == size }, "\(folders): \(size)")
            }
            if let count = result.facts["jetsam.processes"] {
                #expect(events.allSatisfy { FactValue.int($0.processes.count) == count }, "\(folders): \(count)")
            }
            if let largest = result.facts["jetsam.largestProcess"] {
                #expect(events.allSatisfy { $0.largestProcess.map(FactValue.string) == largest }, "\(folders)")
            }
            #expect(result.facts["jetsam.topProcesses"] == nil, "\(folders)")
        }
        #expect(checked > 0)
    }

    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func realWorldFilesNeverContradictThemselves() async throws {
        var runs = 0
        for input in Self.realworldInputs {
            for playbook in Self.playbooks {
                var apps: [String?] = [nil]
                if input.hasSuffix("jetsam_vm-pageshortage.crash") { apps.append("Apollo") }
                for app in apps {
                    await Task.yield()
                    let result = try await Hunt.run([input], app: app, playbook: playbook)
                    let violations = Self.violations(result, input: input, playbook: playbook)
                    #expect(violations.isEmpty, "\(violations)")
                    runs += 1
                }
            }
        }
        #expect(runs > 100)
    }

    /// The three rules, for one run: what breaks them, one line each.
    static func violations(_ result: RunResult, input: String, playbook: String) -> [String] {
        var violations: [String] = []
        let name = "\(input) with \(playbook), app \(result.subject.app ?? "none")"
        let codes = Set(result.findings.map(\.code))
        // 1. Alive and ended, or "no crash" next to a crash finding, for the same subject.
        // (Without a subject each finding speaks of the app its artifact names, so codes cannot contradict.)
        if result.subject.app != nil, codes.contains("crash-report.none") {
            let contradicting = codes.intersection(ended)
            if !contradicting.isEmpty {
                violations.append("\(name): crash-report.none next to \(contradicting.sorted())")
            }
        }
        if codes.contains("crash-report.ended") && codes.contains("crash-report.ended-without-report") {
            violations.append("\(name): a crash report and none")
        }
        // 2. No finding about the subject rests on an artifact of another app.
        let bySource = Dictionary(result.artifacts.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        for finding in result.findings
        where !finding.code.hasPrefix("artifacts.") && finding.code != "crash-report.several-apps" {
            for evidence in finding.evidence {
                guard let artifact = bySource[evidence.source] else { continue }
                // A JetsamEvent names every process alive, no single app: it is nobody's artifact.
                if ArtifactOwner.name(of: artifact) != nil, ArtifactOwner.belongs(artifact, to: result.subject) == false
                {
                    violations.append(
                        "\(name): \(finding.code) cites \(evidence.source), which names "
                            + (ArtifactOwner.name(of: artifact) ?? "?"))
                }
            }
        }
        // 3. A MetricKit value present but unreadable is never a silent gap.
        let payloads = result.artifacts.compactMap { artifact -> (Artifact, MetricPayload)? in
            guard case .metricPayload(let payload)? = artifact.content,
                ArtifactOwner.belongs(artifact, to: result.subject) != false
            else { return nil }
            return (artifact, payload)
        }
        // 4. A file given and not read is evidence of unknown content: no sentence then asserts an absence.
        // A step's sentences are weighed against the unread files that may be of its kinds (or of no known kind);
        // the closing sentences, of no step, against every unread file.
        let unread = result.artifacts.filter { $0.status != .ok && $0.size != 0 }
        if !unread.isEmpty {
            let document = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "consistency"))
            // The kinds a text speaks of: those its check reads (a verdict sentence's, through its finding's
            // code), else its step's; a closing sentence speaks of every kind.
            func kinds(check: String?, step: String?) -> [ArtifactKind]? {
                if let check, let type = builtInChecks.first(where: { $0.description.id == check }) {
                    return type.description.reads
                }
                return step.flatMap { id in result.steps.first { $0.step.id == id }?.step.reads }
            }
            let texts =
                (document.verdict?.sentences.map { sentence in
                    let finding = result.findings.first { sentence.codes.contains($0.code) }
                    return (sentence.text, kinds(check: finding?.check, step: sentence.step))
                } ?? [])
                + result.findings.map { ($0.title, kinds(check: $0.check, step: $0.step)) }
            for (text, reads) in texts {
                let relevant = unread.filter { artifact in
                    reads.map { reads in artifact.kind.map(reads.contains) ?? true } ?? true
                }
                guard !relevant.isEmpty else { continue }
                for absence in Self.absences where text.contains(absence) {
                    violations.append(
                        "\(name): \"\(text)\" says \"\(absence)\" while \(unread.count) files went unread ("
                            + unread.prefix(2).map(\.source).joined(separator: ", ") + ")")
                }
            }
        }
        let reads = result.steps.contains { $0.checksRun.contains("metrickit-memory") }
        if reads, let newest = payloads.max(by: { ($0.1.time ?? 0) < ($1.1.time ?? 0) }), !newest.1.unreadable.isEmpty {
            if !codes.contains("metrickit-memory.unreadable") {
                violations.append("\(name): \(newest.1.unreadable) without a finding")
            }
        }
        return violations
    }

    @Test func theRulesCatchWhatTheyAreFor() throws {
        // Runs that break each rule: the rules must say so (they can fail).
        let step = Step(id: "s", title: "S", reads: [.crashReport, .metricPayload])
        let none = Finding(code: "crash-report.none", step: "s", severity: .info, title: "", detail: "")
        let killed = Finding(
            code: "jetsam-rank.killed", step: "s", severity: .warning, title: "", detail: "",
            evidence: [Evidence(source: "other.ips")])
        let other = Artifact(
            source: "other.ips", kind: .crashReport, status: .ok,
            content: .crashReport(CrashReport(format: .ipsJSON, appName: "Transit", kind: .crash)))
        var payload = MetricPayload(bundleIdentifier: "com.example.JustSend")
        payload.unreadable = ["/memoryMetrics/peakMemoryUsage is '1 XB': the unit 'XB' is not one memhunt knows"]
        let metrics = Artifact(source: "m.json", kind: .metricPayload, status: .ok, content: .metricPayload(payload))
        let result = RunResult(
            toolVersion: "test", playbook: try Hunt.playbook(), subject: Subject(app: "JustSend", origin: .given),
            steps: [
                StepResult(
                    number: 1, step: step, status: .finding, facts: [:], findings: [none, killed],
                    checksRun: ["metrickit-memory"])
            ],
            artifacts: [other, metrics])
        let violations = Self.violations(result, input: "made up", playbook: "memory-hunt")
        #expect(violations.count == 3)
        #expect(violations[0].hasSuffix("crash-report.none next to [\"jetsam-rank.killed\"]"))
        #expect(violations[1].hasSuffix("jetsam-rank.killed cites other.ips, which names Transit"))
        #expect(violations[2].hasSuffix("without a finding"))
    }
}
