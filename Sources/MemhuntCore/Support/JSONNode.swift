import MemhuntFormats

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
        JSON.appendString(s, to: &out)
    }
}
