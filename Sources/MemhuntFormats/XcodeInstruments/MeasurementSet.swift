/// One measurement of memhunt's own format: numbers read off Xcode's memory gauge or Instruments.
public struct Measurement: Sendable, Hashable {
    /// What the row is: `before-detail`, `one-block`, …
    public var label: String
    /// Physical footprint in MB of 1,048,576 bytes, as Xcode shows it.
    public var footprintMB: Double
    /// The CoreAnimation share in MB, when measured.
    public var coreAnimationMB: Double?
    /// Number of layers, when counted.
    public var layers: Int?
    /// Size of the input that was rendered, in bytes.
    public var inputBytes: Int?
    /// Lines of that input.
    public var inputLines: Int?
    /// What was changed between rows of one scenario (`one-block`, `2500-blocks`).
    public var variant: String?
    /// Which reproduction the row belongs to (the JSON top-level one when the row has none).
    public var scenario: String?
    /// Capture time as written: ISO 8601 or `yyyy-MM-dd HH:mm:ss`.
    public var time: String?
    /// Free text.
    public var note: String?
    /// 0-based position in the file.
    public var order: Int

    public init(
        label: String, footprintMB: Double, coreAnimationMB: Double? = nil, layers: Int? = nil, inputBytes: Int? = nil,
        inputLines: Int? = nil, variant: String? = nil, scenario: String? = nil, time: String? = nil,
        note: String? = nil, order: Int
    ) {
        self.label = label
        self.footprintMB = footprintMB
        self.coreAnimationMB = coreAnimationMB
        self.layers = layers
        self.inputBytes = inputBytes
        self.inputLines = inputLines
        self.variant = variant
        self.scenario = scenario
        self.time = time
        self.note = note
        self.order = order
    }

    /// `footprintMB` in bytes.
    public var footprintBytes: Int { ReproText.int(footprintMB * 1_048_576) ?? Int.max }
}

/// A file of measurements in memhunt's CSV or JSON format (see `Playbooks/measurements.md`).
public struct MeasurementSet: Sendable, Hashable {
    /// Rows in file order.
    public var measurements: [Measurement]

    public init(measurements: [Measurement]) { self.measurements = measurements }

    /// The most rows a set may have. Measurements are read off Xcode's gauge or Instruments, a few to a few hundred
    /// rows; each row becomes a value of about 180 bytes, so a long CSV of short rows took many times its size in
    /// memory, rows and the checks' samples of them. A longer file is an error naming the limit.
    public static let maxRows = 100_000

    static func tooMany(line: Int?) -> FormatError {
        FormatError("more than 100,000 rows, the limit of a measurements file", line: line)
    }

    /// CSV columns this format knows; others are ignored.
    public static let columns = [
        "label", "footprint_mb", "core_animation_mb", "layers", "input_bytes", "input_lines", "variant", "scenario",
        "time", "note",
    ]

    /// A header line with `label` and `footprint_mb` columns, or JSON with `"memhunt": "measurements/1"` near the start.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool {
        let head = Array(prefix.prefix(4096))
        if head.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "{") {
            // ASCII (the usual case): the whitespace `Character`s are the bytes \t \n \v \f \r and space, and the
            // needle (ASCII, no `K`) is found as `Character`s exactly where its bytes are. The `Character` filter was
            // most of the measurements fuzz target's time.
            if head.allSatisfy({ $0 < 0x80 }) {
                let needle = Array("\"memhunt\":\"measurements/1\"".utf8)
                let squeezed = head.filter { !(9...13).contains($0) && $0 != 32 }
                return squeezed.count >= needle.count
                    && (0...squeezed.count - needle.count).contains {
                        squeezed[$0..<$0 + needle.count].elementsEqual(needle)
                    }
            }
            let text = String(decoding: head, as: UTF8.self).filter { !$0.isWhitespace }
            return text.contains("\"memhunt\":\"measurements/1\"")
        }
        // Both names can only be columns if their bytes are in the head once quotes are dropped (the
        // names drop quote `Character`s; neither name has a letter that another `Character` equals).
        let unquoted = head.filter { $0 != UInt8(ascii: "\"") }
        func has(_ name: String) -> Bool {
            let needle = Array(name.utf8)
            return unquoted.count >= needle.count
                && (0...unquoted.count - needle.count).contains {
                    unquoted[$0] == needle[0] && unquoted[$0..<$0 + needle.count].elementsEqual(needle)
                }
        }
        guard has("footprint_mb"), has("label") else { return false }
        guard
            let header = ReproText.lines(head).first(where: { line in
                let trimmed = ReproText.trimmed(line)
                return !trimmed.isEmpty && !trimmed.hasPrefix("#")
            })
        else { return false }
        let names = header.split(separator: ",").map { ReproText.trimmed($0).filter { $0 != "\"" } }
        return names.contains("label") && names.contains("footprint_mb")
    }

    /// Parses either form; errors carry the 1-based line.
    public static func parse(_ bytes: [UInt8]) -> Result<MeasurementSet, FormatError> {
        bytes.first(where: { ![9, 10, 13, 32].contains($0) }) == UInt8(ascii: "{") ? parseJSON(bytes) : parseCSV(bytes)
    }

    /// One field value of a row, with the line it came from for errors.
    typealias Fields = [String: (text: String, line: Int)]

    static func row(_ fields: Fields, order: Int, line: Int, scenario: String?) -> Result<Measurement, FormatError> {
        func text(_ key: String) -> String? {
            fields[key].flatMap { $0.text.isEmpty ? nil : $0.text }
        }
        func number(_ key: String) throws(FormatError) -> Double? {
            guard let field = fields[key], !field.text.isEmpty else { return nil }
            guard let value = ReproText.measure(ReproText.trimmed(field.text)) else {
                throw FormatError(
                    "\(key) \(FormatError.quoted(field.text)) is not a non-negative number", line: field.line)
            }
            return value
        }
        func integer(_ key: String) throws(FormatError) -> Int? {
            guard let value = try number(key) else { return nil }
            guard value == value.rounded(), let int = ReproText.int(value) else {
                throw FormatError("\(key) '\(value)' is not a whole number", line: fields[key]?.line)
            }
            return int
        }
        do throws(FormatError) {
            guard let label = text("label") else { throw FormatError("a row without a label", line: line) }
            guard let footprint = try number("footprint_mb") else {
                throw FormatError("row \(FormatError.quoted(label)) has no footprint_mb", line: line)
            }
            return .success(
                Measurement(
                    label: label, footprintMB: footprint, coreAnimationMB: try number("core_animation_mb"),
                    layers: try integer("layers"), inputBytes: try integer("input_bytes"),
                    inputLines: try integer("input_lines"), variant: text("variant"),
                    scenario: text("scenario") ?? scenario, time: text("time"), note: text("note"), order: order))
        } catch {
            return .failure(error)
        }
    }

    static func parseCSV(_ bytes: [UInt8]) -> Result<MeasurementSet, FormatError> {
        var header: [String]?
        var rows: [Measurement] = []
        var reader = CSVReader(bytes: bytes)
        while let record = reader.next() {
            switch record {
            case .failure(let error): return .failure(error)
            case .success(let (fields, line)):
                guard let names = header else {
                    let names = fields.map { String(ReproText.trimmed($0)) }
                    guard names.contains("label"), names.contains("footprint_mb") else {
                        return .failure(FormatError("header needs 'label' and 'footprint_mb' columns", line: line))
                    }
                    header = names
                    continue
                }
                guard fields.count <= names.count else {
                    return .failure(FormatError("\(fields.count) fields but the header has \(names.count)", line: line))
                }
                guard rows.count < maxRows else { return .failure(tooMany(line: line)) }
                var values: Fields = [:]
                for (name, field) in zip(names, fields) { values[name] = (field, line) }
                switch row(values, order: rows.count, line: line, scenario: nil) {
                case .success(let measurement): rows.append(measurement)
                case .failure(let error): return .failure(error)
                }
            }
        }
        guard header != nil else { return .failure(FormatError("no CSV header line")) }
        return .success(MeasurementSet(measurements: rows))
    }

    static func parseJSON(_ bytes: [UInt8]) -> Result<MeasurementSet, FormatError> {
        // The rows are read as the parser meets them, never built as a tree, which took many times the file's size.
        let reader = MeasurementRowReader()
        let root: JSONValue
        let visited: Bool
        do throws(FormatError) {
            let (value, wasVisited, end) = try JSON.parsePrefix(
                bytes, from: 0, visitingElementsOf: "measurements", with: reader)
            let after = JSON.skipWhitespace(bytes, from: end)
            if after < bytes.count {
                throw FormatError(
                    "unexpected \(JSON.describe(bytes[after])) after the JSON value",
                    line: JSON.line(of: after, in: bytes), offset: after)
            }
            (root, visited) = (value, wasVisited)
        } catch {
            return .failure(error)
        }
        guard root["memhunt"]?.string == "measurements/1" else {
            return .failure(FormatError("'memhunt' must be \"measurements/1\"", line: 1))
        }
        guard visited || root["measurements"]?.elements != nil else {
            return .failure(FormatError("'measurements' must be an array", line: 1))
        }
        // An empty array is built, not visited.
        if !visited, let items = root["measurements"]?.elements, !items.isEmpty {
            return .failure(FormatError("'measurements' must be an array", line: 1))
        }
        guard reader.count <= maxRows else { return .failure(tooMany(line: nil)) }
        if let error = reader.error { return .failure(error) }
        // The document's scenario is known only now (it may follow the rows): rows without their own take it.
        let scenario = root["scenario"]?.string
        var rows = reader.rows
        if let scenario {
            for index in rows.indices where rows[index].scenario == nil { rows[index].scenario = scenario }
        }
        return .success(MeasurementSet(measurements: rows))
    }
}

/// RFC 4180 records: quoted fields may hold commas, doubled quotes and newlines. Lines starting with `#`
/// (outside quotes) and blank lines are skipped.
struct CSVReader {
    let bytes: [UInt8]
    var offset = 0
    var line = 1

    /// The next record's fields and the 1-based line it starts on.
    mutating func next() -> Result<(fields: [String], line: Int), FormatError>? {
        while offset < bytes.count {
            let start = line
            if bytes[offset] == UInt8(ascii: "#") || bytes[offset] == 10 || bytes[offset] == 13 {
                skipLine()
                continue
            }
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            while true {
                guard offset < bytes.count else {
                    if quoted { return .failure(FormatError("unterminated quoted field", line: start)) }
                    fields.append(String(decoding: field, as: UTF8.self))
                    return .success((fields, start))
                }
                let byte = bytes[offset]
                offset += 1
                if quoted {
                    if byte == 10 { line += 1 }
                    if byte == UInt8(ascii: "\"") {
                        if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") {
                            field.append(byte)
                            offset += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        field.append(byte)
                    }
                } else if byte == UInt8(ascii: "\"") && field.allSatisfy({ $0 == 32 }) {
                    field.removeAll()
                    quoted = true
                } else if byte == UInt8(ascii: ",") {
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll()
                } else if byte == 10 {
                    line += 1
                    if field.last == 13 { field.removeLast() }
                    fields.append(String(decoding: field, as: UTF8.self))
                    return .success((fields, start))
                } else {
                    field.append(byte)
                }
            }
        }
        return nil
    }

    mutating func skipLine() {
        while offset < bytes.count, bytes[offset] != 10 { offset += 1 }
        offset += 1
        line += 1
    }
}

/// Each measurement read as the parser meets its members (strings and numbers as text, nulls left out) and made a
/// row at once, so no tree and no table of fields is kept; at most `MeasurementSet.maxRows` rows (the rest are
/// counted). The first row that is no object, holds another value or is no measurement is the error.
final class MeasurementRowReader: JSONElementVisitor {
    private(set) var rows: [Measurement] = []
    private(set) var count = 0
    private(set) var error: FormatError?
    private var fields: MeasurementSet.Fields = [:]
    private var problem: FormatError?
    private var members = 0

    func begin(element index: Int) {
        fields.removeAll(keepingCapacity: true)
        problem = nil
        members = 0
    }

    func member(key: UnsafeBufferPointer<UInt8>, value: JSONRawValue) {
        members += 1
        guard problem == nil, error == nil else { return }
        let name = String(decoding: key, as: UTF8.self)
        switch value.built {
        case .string(let text): fields[name] = (text, 0)
        case .number(let literal): fields[name] = (literal, 0)
        case .null: break
        default:
            problem = FormatError("measurement \(count): \(FormatError.quoted(name)) must be a string or number")
        }
    }

    func end(element index: Int) {
        defer { count += 1 }
        guard count < MeasurementSet.maxRows, error == nil else { return }
        if let problem {
            error = problem
        } else if members == 0 {
            // An element that is no object has no members, as `{}` has none: neither is a measurement.
            error = FormatError("measurement \(count) is not an object with members")
        } else {
            switch MeasurementSet.row(fields, order: count, line: 0, scenario: nil) {
            case .success(let measurement): rows.append(measurement)
            case .failure(var failure):
                failure.line = nil
                failure.message = "measurement \(count): " + failure.message
                error = failure
            }
        }
    }
}

extension MeasurementSet: ReproFormat {
    public static let kind = ArtifactKind.measurements
    public static let fixtures = ["Fixtures/formats/repro/measurements-bom.csv"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(sniff.head) }
    public static func artifact(_ value: MeasurementSet) -> ReproArtifact { .measurements(value) }
}
