#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `xcodebuild test` log read as it streams: a log of hundreds of megabytes is one artifact, and only its
/// test-case and metric lines are kept (`XCTestMetrics.metric` reads each `… measured [` line); every other
/// line is skipped at `memchr`/`memmem` speed, without building a `String`.
///
/// Memory is bounded whatever the log's size: a line longer than `lineCap` is skipped (and counted), at most
/// `metricLimit` metrics and `flawLimit` unreadable-line notes are kept, and the rest are counted.
public struct XCTestLogScanner: Sendable, LineScanning {
    /// Lines longer than this are skipped: a metric line is a few hundred bytes; compiler invocations reach
    /// tens of kilobytes.
    public static let lineCap = 1 << 20
    /// Metrics kept; a log with more says how many it left out.
    public static let metricLimit = 10_000
    /// Unreadable metric lines named one by one; past it they are counted.
    public static let flawLimit = 100

    var splitter = LineSplitter(cap: XCTestLogScanner.lineCap)
    private var lineNumber = 0
    private var metrics: [XCTestMetric] = []
    private var flaws: [String] = []
    private var flawsPast = 0
    private var metricsPast = 0
    private var started = 0
    private var longLines = 0

    public init() {}

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        feedLines(chunk)
    }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: ArraySlice<UInt8>) {
        chunk.withUnsafeBytes { feed($0) }
    }

    /// Ends the input (a last line without a newline counts) and returns what was read. Call once.
    public mutating func finish() -> Result<XCTestMetrics, FormatError> {
        finishLines()
        guard !metrics.isEmpty || !flaws.isEmpty || started > 0 else {
            return .failure(FormatError("an XCTest log with no test case and no measured metric"))
        }
        var unreadable = flaws
        func lines(_ count: Int) -> String { count == 1 ? "1 line" : "\(count) lines" }
        if flawsPast > 0 {
            unreadable.append("\(flawsPast) more unreadable metric \(flawsPast == 1 ? "line" : "lines") (not listed)")
        }
        if metricsPast > 0 {
            unreadable.append("\(lines(metricsPast)) with a metric past the first \(Self.metricLimit) not read")
        }
        if longLines > 0 {
            unreadable.append("\(lines(longLines)) longer than \(Self.lineCap) bytes skipped unread")
        }
        return .success(
            XCTestMetrics(source: .xcodebuildLog, metrics: metrics, unreadable: unreadable, testsStarted: started))
    }

    private static let measured = Array(" measured [".utf8)
    private static let testCase = Array("Test Case '".utf8)
    private static let startedSuffix = Array("' started.".utf8)

    @inline(__always)
    mutating func line(_ raw: UnsafeBufferPointer<UInt8>, tooLong: Bool) {
        lineNumber += 1
        if tooLong {
            longLines += 1
            return
        }
        let bytes = raw.last == 13 ? UnsafeBufferPointer(rebasing: raw.dropLast()) : raw
        guard bytes.count >= Self.startedSuffix.count, let base = bytes.baseAddress else { return }
        if Self.contains(base, bytes.count, Self.measured) {
            guard metrics.count < Self.metricLimit else {
                metricsPast += 1
                return
            }
            switch XCTestMetrics.metric(String(decoding: bytes, as: UTF8.self), number: lineNumber) {
            case .success(let metric): metrics.append(metric)
            case .failure(let error):
                if flaws.count < Self.flawLimit {
                    flaws.append("line \(lineNumber): \(error.message)")
                } else {
                    flawsPast += 1
                }
            }
        } else if bytes.suffix(Self.startedSuffix.count).elementsEqual(Self.startedSuffix),
            Self.contains(base, bytes.count, Self.testCase)
        {
            started += 1
        }
    }

    /// Whether the line holds `needle`, looked for by its last byte (`[` and `'`, rare in build output) with
    /// `memchr`, then compared (`memmem` is not in every libc's Swift module). `ReproText.containsBytes` anchors
    /// on the first byte, which for ` measured [` is a space: every space of every compiler invocation.
    private static func contains(_ base: UnsafePointer<UInt8>, _ count: Int, _ needle: [UInt8]) -> Bool {
        let length = needle.count
        guard length > 0, count >= length else { return false }
        return needle.withUnsafeBufferPointer { needle in
            guard let needleBase = needle.baseAddress else { return false }
            let last = Int32(needle[length - 1])
            var from = length - 1
            while from < count, let found = memchr(base + from, last, count - from) {
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + end - (length - 1), needleBase, length - 1) == 0 { return true }
                from = end + 1
            }
            return false
        }
    }
}
