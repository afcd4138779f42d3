// libFuzzer target `leaks`: leaks reports of memgraphs, streamed line by line, and what memhunt says of their
// trees (each cycle's shape, pattern and owner; the per-class comparison of two captures). Differential: a read
// in two chunks equals a whole read; past small bounds, lines passed over by their bytes change nothing; the
// shapes folded as each tree closes are those of the kept trees grouped afterwards; the classifier's memos name
// each shape as `classify` does alone; the recogniser's byte gate turns no match away.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
import MemhuntSnapshots

@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let sniff = FormatSniff(bytes[...])
    precondition(
        LeaksReport.recognises(sniff) == LeaksReport.matches(lines: sniff.lines), "the byte gate turned a match away")
    guard case .success(let report) = LeaksReport.parse(bytes) else { return 0 }
    // The same bytes in two chunks read as one.
    var scanner = LeaksScanner()
    bytes.withUnsafeBytes { whole in
        let half = whole.count / 2
        scanner.feed(UnsafeRawBufferPointer(rebasing: whole[..<half]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: whole[half...]))
    }
    guard case .success(let chunked) = scanner.finish(), chunked == report else { fatalError("chunked read differs") }
    // Past small bounds, ASCII lines read from their bytes and lines passed over by them leave the read as it is
    // when every line is read as a string.
    let small = LeakForest.Bounds(trees: 2, lines: 6, total: 9)
    var fast = LeaksScanner(bounds: small, fast: true)
    var strings = LeaksScanner(bounds: small, fast: false)
    bytes.withUnsafeBytes { whole in
        fast.feed(whole)
        strings.feed(whole)
    }
    guard fast.finish() == strings.finish() else { fatalError("the bytes' reading differs from the strings'") }
    // The tally folded as trees close, against the kept trees' shapes grouped afterwards, one by one.
    var keeping = LeaksScanner(bounds: LeakForest.Bounds(), fast: true, keepingLines: true)
    bytes.withUnsafeBytes { keeping.feed($0) }
    guard case .success(let kept) = keeping.finish() else { fatalError("keeping the lines failed the read") }
    guard kept.forest.shapes == report.forest.shapes else { fatalError("keeping the lines changed the tally") }
    // Past a bound of distinct shapes too: a shape alike none named is counted, not named.
    var few = LeaksScanner(bounds: LeakForest.Bounds(shapes: 3), fast: true)
    bytes.withUnsafeBytes { few.feed($0) }
    guard case .success(let bounded) = few.finish() else { fatalError("a bound of shapes failed the read") }
    for (bound, tally) in [(Int.max, report.forest.shapes), (3, bounded.forest.shapes)] {
        var regrouped: [(shape: LeakShape, instances: Int)] = []
        var unnamed = 0
        for shape in LeakShape.all(in: kept.forest) {
            if let at = regrouped.firstIndex(where: { LeakShapeTally.alike($0.shape, shape) }) {
                regrouped[at].instances += 1
            } else if regrouped.count >= bound {
                unnamed += 1
            } else {
                regrouped.append((shape, 1))
            }
        }
        guard regrouped.map(\.shape) == tally.groups.map(\.shape),
            regrouped.map(\.instances) == tally.groups.map(\.instances), unnamed == tally.unnamed
        else { fatalError("the shapes folded as trees closed differ from the kept trees'") }
    }
    // Each ASCII line's tree line read from its bytes as from its string.
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        let text = line.last == 0x0D ? line.dropLast() : line
        text.withUnsafeBufferPointer { buffer in
            guard LeakLineBytes.isASCII(buffer) else { return }
            let string = String(decoding: buffer, as: UTF8.self)
            guard
                LeakTreeLine.parse(ascii: LeakLineBytes(bytes: buffer), line: 1)
                    == LeakTreeLine.parse(Substring(string), line: 1)
            else { fatalError("a tree line read from its bytes differs: \(string)") }
        }
    }
    // Each shape named by the report's classifier (its memos) as on its own.
    var classifier = CycleCatalog.Classifier(process: report.processName)
    for shape in report.forest.shapes.groups.map(\.shape) {
        let leak = CycleCatalog.classify(shape, process: report.processName)
        guard classifier.classify(shape) == leak else { fatalError("the classifier's memo named a shape otherwise") }
        _ = (leak.shape.path, leak.evidence)
    }
    let classes = CaptureDiff.classes(report)
    _ = CaptureDiff(kind: .leaks, before: classes, after: [:]).rows.count
    return 0
}
