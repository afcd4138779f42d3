/// A JSON value in a fixed key order, so the findings document is byte-stable.
public indirect enum JSONNode: Sendable, Hashable {
    case null
    case bool(Bool)
    case string(String)
    case array([JSONNode])
    /// Keys in the order given.
    case object([(String, JSONNode)])
    /// A number written exactly as given (`725`, `13.6`, `1e+308`).
    case number(String)

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.rendered() == rhs.rendered() }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// Pretty-printed with two-space indentation and a trailing newline.
    public func rendered() -> String {
        var out = ""
        write(into: &out, indent: "")
        return out + "\n"
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let v): out += v ? "true" : "false"
        case .number(let text): out += text
        case .string(let v): Self.escape(v, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += indent + "  "
                item.write(into: &out, indent: indent + "  ")
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let pairs):
            if pairs.isEmpty {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, (key, value)) in pairs.enumerated() {
                out += indent + "  "
                Self.escape(key, into: &out)
                out += ": "
                value.write(into: &out, indent: indent + "  ")
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    private static func escape(_ s: String, into out: inout String) {
        out += "\""
        // Most strings need no escape: appended whole (per scalar, this was 7 M instructions of a 442-process
        // JetsamEvent run's JSON report, callgrind).
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
