#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines out of chunks, for the streaming readers (change logs with their kill lines, `xcodebuild` logs): a line
/// may span chunks, and memory stays bounded whatever the input, as a line longer than `cap` bytes is reported
/// as too long and its bytes are not kept.
///
/// `line` gets each complete line without its `\n`, whether it is longer than `cap` (then it is handed over
/// empty), and whether the bytes are the splitter's own copy of a line that spanned chunks, which go
/// away when `line` returns (a reader that keeps a pointer into them copies it first). Within a chunk a line is
/// handed over where it lies, never copied.
struct LineSplitter {
    let cap: Int
    private var pending: [UInt8] = []
    private var overflow = false

    init(cap: Int) { self.cap = cap }

    /// Whether no part of a line is waiting for its end.
    var isEmpty: Bool { pending.isEmpty && !overflow }

    /// Splits `chunk`, keeping its last line when no `\n` ends it.
    @inline(__always)
    mutating func feed(
        _ chunk: UnsafeRawBufferPointer, _ line: (UnsafeBufferPointer<UInt8>, _ tooLong: Bool, _ copied: Bool) -> Void
    ) {
        guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = chunk.count
        var start = 0
        while start < count {
            guard let newline = Self.newline(in: base + start, count: count - start).map({ start + $0 }) else {
                if overflow || pending.count + count - start > cap {
                    overflow = true
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
                }
                return
            }
            if isEmpty {
                let length = newline - start
                line(UnsafeBufferPointer(start: base + start, count: length > cap ? 0 : length), length > cap, false)
            } else {
                let tooLong = overflow || pending.count + newline - start > cap
                if !tooLong {
                    pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: newline - start))
                }
                flush(tooLong: tooLong, line)
            }
            start = newline + 1
        }
    }

    /// Ends the input: a last line that no `\n` ended is a line.
    mutating func finish(_ line: (UnsafeBufferPointer<UInt8>, _ tooLong: Bool, _ copied: Bool) -> Void) {
        if !isEmpty { flush(tooLong: overflow, line) }
    }

    private mutating func flush(
        tooLong: Bool, _ line: (UnsafeBufferPointer<UInt8>, _ tooLong: Bool, _ copied: Bool) -> Void
    ) {
        var text: [UInt8] = []
        swap(&text, &pending)
        text.withUnsafeBufferPointer { line(tooLong ? UnsafeBufferPointer(rebasing: $0[0..<0]) : $0, tooLong, true) }
        text.removeAll(keepingCapacity: true)
        swap(&text, &pending)
        overflow = false
    }

    /// The offset of the first `\n`, or nil.
    @inline(__always)
    static func newline(in bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            guard let found = memchr(bytes, 10, count) else { return nil }
            return bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
        #else
            for index in 0..<count where bytes[index] == 10 { return index }
            return nil
        #endif
    }
}

/// A streaming reader of lines (`LeaksScanner`, `HeapScanner`, `XCTestLogScanner`): chunks in, each line to `line`.
protocol LineScanning {
    static var lineCap: Int { get }
    var splitter: LineSplitter { get set }
    /// One line without its `\n`, empty and `tooLong` when it was longer than `lineCap`.
    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, tooLong: Bool)
}

extension LineScanning {
    /// Splits `chunk` into lines for `line`; a line may span chunks. The splitter is taken out of `self` while it
    /// runs, since `line` changes `self`.
    mutating func feedLines(_ chunk: UnsafeRawBufferPointer) {
        var splitter = self.splitter
        self.splitter = LineSplitter(cap: Self.lineCap)
        splitter.feed(chunk) { text, tooLong, _ in line(text, tooLong: tooLong) }
        self.splitter = splitter
    }

    /// Ends the input: a last line that no `\n` ended goes to `line`.
    mutating func finishLines() {
        var splitter = self.splitter
        self.splitter = LineSplitter(cap: Self.lineCap)
        splitter.finish { text, tooLong, _ in line(text, tooLong: tooLong) }
        self.splitter = splitter
    }

    /// A line's text: UTF-8 (invalid bytes replaced), without a `\r` before its end and, on the first line, without
    /// a byte order mark.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, first: Bool) -> String {
        let bom = first && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let text = String(decoding: bom ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes, as: UTF8.self)
        return text.hasSuffix("\r") ? String(text.dropLast()) : text
    }
}
