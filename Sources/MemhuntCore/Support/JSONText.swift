import Foundation
import MemhuntFormats

extension JSONNode {
    /// A parsed JSON value in its own key order, numbers kept as written.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let v): self = .bool(v)
        case .number(let text): self = .number(text)
        case .string(let v): self = .string(v)
        case .array(let items): self = .array(items.map(JSONNode.init))
        case .object(let members): self = .object(members.map { ($0.key, JSONNode($0.value)) })
        }
    }
}

/// JSON text of `Encodable` values for every document memhunt writes: sorted keys, two-space
/// indentation, `"key": value`, empty containers as `[]` and `{}`, and a final newline. The encoder
/// decides the values (`JSONNodeEncoder`, `JSONEncoder`'s text); `JSONNode` decides the layout, the same on
/// every platform.
public enum JSONText {
    public static func pretty<T: Encodable>(_ value: T) -> String {
        (try? JSONNodeEncoder.encode(value))?.rendered() ?? "null\n"
    }
}
