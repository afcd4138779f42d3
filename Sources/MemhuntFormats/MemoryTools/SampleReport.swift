/// One frame of a call tree: nesting depth, inclusive sample count and the frame text.
public struct SampleFrame: Sendable, Hashable {
    /// Column of the count, so deeper frames have larger values.
    public var depth: Int
    /// Samples that include this frame (inclusive).
    public var count: Int
    /// The symbol and what follows it (`ViewRendererHost.render(interval:updateDisplayList:)  (in SwiftUI) + 12`).
    public var symbol: String

    public init(depth: Int, count: Int, symbol: String) {
        self.depth = depth
        self.count = count
        self.symbol = symbol
    }
}

/// `sample` or spindump text: what the main thread was doing.
public struct SampleReport: Sendable, Hashable {
    /// From `Analysis of sampling` or `Process:`.
    public var processName: String?
    /// From `Process:`.
    public var pid: Int?
    /// Samples of the main thread (`com.apple.main-thread`) from its thread header.
    public var mainThreadSamples: Int?
    /// The main thread's frames in file order.
    public var mainThreadFrames: [SampleFrame]
    /// Main-thread samples whose stack includes a SwiftUI/UIKit/Core Animation layout frame (`layoutMarkers`).
    public var layoutSamples: Int
    /// Main-thread samples whose stack includes a `body.getter` frame.
    public var bodySamples: Int
    /// Main-thread samples waiting for events (`idleMarkers`).
    public var idleSamples: Int
    /// The `Sort by top of stack` table, top 10, as (symbol, count).
    public var heaviestFrames: [SampleFrame]
    /// `Physical footprint:` in bytes, when printed.
    public var physicalFootprintBytes: Int?
    /// `Physical footprint (peak):` in bytes, when printed.
    public var physicalFootprintPeakBytes: Int?

    public init(
        processName: String? = nil, pid: Int? = nil, mainThreadSamples: Int? = nil,
        mainThreadFrames: [SampleFrame] = [],
        layoutSamples: Int = 0, bodySamples: Int = 0, idleSamples: Int = 0, heaviestFrames: [SampleFrame] = [],
        physicalFootprintBytes: Int? = nil, physicalFootprintPeakBytes: Int? = nil
    ) {
        self.processName = processName
        self.pid = pid
        self.mainThreadSamples = mainThreadSamples
        self.mainThreadFrames = mainThreadFrames
        self.layoutSamples = layoutSamples
        self.bodySamples = bodySamples
        self.idleSamples = idleSamples
        self.heaviestFrames = heaviestFrames
        self.physicalFootprintBytes = physicalFootprintBytes
        self.physicalFootprintPeakBytes = physicalFootprintPeakBytes
    }

    /// Substrings of frames that do layout or rendering work on the main thread.
    public static let layoutMarkers = [
        "CA::Transaction::commit", "layoutSublayersOfLayer", "UIHostingView.layoutSubviews", "ViewRendererHost.render",
        "ViewGraph", "AG::Graph::UpdateStack::update", "LazyStackLayout", "placeSubviews", "sizeThatFits", "GraphHost",
    ]
    /// Substrings of frames where the main thread waits for work.
    public static let idleMarkers = ["mach_msg_trap", "mach_msg2_trap", "__CFRunLoopServiceMachPort"]

    /// Main-thread samples whose stack has a frame containing any of `markers`: the sum of the inclusive
    /// counts of the outermost matching frames (sibling subtrees hold disjoint samples, nested ones do not).
    public func mainThreadSamples(matching markers: [String]) -> Int {
        var matchedDepth: Int?
        var total = 0
        for frame in mainThreadFrames {
            if let depth = matchedDepth, frame.depth > depth { continue }
            matchedDepth = nil
            if markers.contains(where: { ReproText.containsText(frame.symbol, $0) }) {
                matchedDepth = frame.depth
                // Counts come from the input: saturate instead of trapping on absurd values.
                let (sum, overflow) = total.addingReportingOverflow(max(0, frame.count))
                total = overflow ? Int.max : sum
            }
        }
        return min(total, mainThreadSamples ?? total)
    }

    /// Whether `prefix` has `Analysis of sampling`, a `Call graph:` section or a spindump thread header.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool { matches(lines: ReproText.sniffLines(prefix)) }

    static func matches(lines: [String]) -> Bool {
        lines.contains { line in
            line.hasPrefix("Analysis of sampling") || line.hasPrefix("Call graph:") || spindumpThread(line) != nil
        }
    }

    /// Parses the header, the main thread's call tree and the `Sort by top of stack` table.
    public static func parse(_ bytes: [UInt8]) -> Result<SampleReport, FormatError> {
        enum Section { case none, mainThread, otherThread, topOfStack }
        var report = SampleReport()
        var section = Section.none
        var sawMainThread = false
        for line in ReproText.lines(bytes) {
            let trimmed = ReproText.trimmed(line)
            if let value = ReproText.headerValue(line, "Analysis of sampling ") {
                let name = value.firstRange(of: " (pid ").map { value[..<$0.lowerBound] } ?? value
                report.processName = report.processName ?? String(name)
            } else if let value = ReproText.headerValue(line, "Process:") {
                (report.processName, report.pid) = ReproText.nameAndPID(value)
            } else if let value = ReproText.headerValue(line, "Physical footprint (peak):") {
                report.physicalFootprintPeakBytes = ReproText.binarySize(value)
            } else if let value = ReproText.headerValue(line, "Physical footprint:") {
                report.physicalFootprintBytes = ReproText.binarySize(value)
            } else if trimmed.hasPrefix("Sort by top of stack") {
                section = .topOfStack
            } else if let thread = sampleThread(trimmed) ?? spindumpThread(line) {
                let isMain = thread.isMain && !sawMainThread
                sawMainThread = sawMainThread || isMain
                section = isMain ? .mainThread : .otherThread
                if isMain { report.mainThreadSamples = thread.samples }
            } else if trimmed.isEmpty || trimmed.hasPrefix("Total number in stack")
                || trimmed.hasPrefix("Binary Images")
            {
                section = .none
            } else if section == .mainThread, let frame = frame(line) {
                report.mainThreadFrames.append(frame)
            } else if section == .topOfStack, report.heaviestFrames.count < 10,
                let count = ReproText.tokens(trimmed).last.flatMap({ Int($0) })
            {
                let symbol =
                    trimmed.firstRange(of: "  (in ").map { trimmed[..<$0.lowerBound] }
                    ?? ReproText.trimmed(trimmed.dropLast(String(count).count))
                report.heaviestFrames.append(SampleFrame(depth: 0, count: count, symbol: String(symbol)))
            }
        }
        guard sawMainThread || !report.heaviestFrames.isEmpty else {
            return .failure(FormatError("no main-thread call graph and no 'Sort by top of stack' table"))
        }
        report.layoutSamples = report.mainThreadSamples(matching: layoutMarkers)
        report.bodySamples = report.mainThreadSamples(matching: ["body.getter"])
        report.idleSamples = report.mainThreadSamples(matching: idleMarkers)
        return .success(report)
    }

    /// `2757 Thread_1167037   DispatchQueue_1: com.apple.main-thread  (serial)` (sample's call graph).
    static func sampleThread(_ trimmed: Substring) -> (samples: Int, isMain: Bool)? {
        // Every line comes here: no tokenizing unless the line can have a `Thread_` token.
        guard ReproText.containsBytes(String(trimmed), "Thread_") else { return nil }
        let tokens = ReproText.tokens(trimmed)
        guard tokens.count >= 2, tokens[1].hasPrefix("Thread_"), let samples = Int(tokens[0]) else { return nil }
        return (samples, isMainThreadHeader(trimmed))
    }

    /// Whether a thread header names the main thread: its queue (`com.apple.main-thread`), or the spellings
    /// `sample` and spindump use where the queue is not printed: `Thread_1167037: Main Thread`,
    /// `Thread 0x1a2b (main)`, `Thread 0x1a2b    Thread name "Main Thread"`.
    static func isMainThreadHeader(_ line: Substring) -> Bool {
        let text = String(line)
        return ReproText.containsBytes(text, "com.apple.main-thread") || ReproText.containsBytes(text, "Main Thread")
            || ReproText.tokens(line).contains("(main)")
    }

    /// `Thread 0x13fc37    DispatchQueue "com.apple.main-thread"(1),none    11 samples (1-11) …` (spindump).
    static func spindumpThread(_ line: String) -> (samples: Int, isMain: Bool)? {
        // The first token must be `Thread`: checked before tokenizing, which every line of every sniffed prefix went
        // through (a noticeable share of a JustSend run).
        guard line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("Thread") else { return nil }
        let tokens = ReproText.tokens(line)
        guard tokens.count >= 4, tokens[0] == "Thread", tokens[1].hasPrefix("0x"),
            let index = tokens.firstIndex(where: { $0 == "samples" || $0 == "sample" }), index > 0,
            let samples = Int(tokens[index - 1])
        else { return nil }
        return (samples, isMainThreadHeader(Substring(line)))
    }

    /// `    +   2757 main  (in MyApp) + 74  [0x…]` or `      10  static App.main() + 128 (SwiftUI + …) [0x…] 1-10`:
    /// the depth is the column of the count, after the branch glyphs `+ ! : |` (and spindump's `*`).
    static func frame(_ line: String) -> SampleFrame? {
        let chars = Array(line.utf8)
        guard let start = chars.firstIndex(where: { !" +!:|*".utf8.contains($0) }), chars[start] >= 48,
            chars[start] <= 57
        else { return nil }
        let end = chars[start...].firstIndex { $0 < 48 || $0 > 57 } ?? chars.count
        guard end < chars.count, chars[end] == 32, let count = Int(String(decoding: chars[start..<end], as: UTF8.self))
        else { return nil }
        let symbol = ReproText.trimmed(String(decoding: chars[end...], as: UTF8.self))
        return symbol.isEmpty ? nil : SampleFrame(depth: start, count: count, symbol: String(symbol))
    }
}

extension SampleReport: ReproFormat {
    public static let kind = ArtifactKind.sample
    public static let fixtures = ["Fixtures/formats/repro/sample-main-thread-name.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: SampleReport) -> ReproArtifact { .sample(value) }
}
