import Foundation

/// Encodes an `Encodable` value straight into a `JSONNode`, objects' keys sorted, with what `JSONEncoder`
/// (`.sortedKeys`, non-finite numbers as strings) would write: numbers as their `description` without a
/// trailing `.0`, `URL` as its absolute string, `Data` in Base64, `Date` as seconds since 2001, keys in
/// `String` order.
///
/// Before, `JSONText` encoded with `JSONEncoder`, parsed the bytes back and laid the tree out, which made the report a
/// large share of a run's work. A differential test holds this encoder to `JSONEncoder`'s text on real documents.
enum JSONNodeEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> JSONNode {
        try box(value, codingPath: []).node()
    }

    /// What one value encoded to: finished, or a container still being filled.
    fileprivate enum Slot {
        case value(JSONNode)
        case object(ObjectBox)
        case array(ArrayBox)

        func node() -> JSONNode {
            switch self {
            case .value(let node): node
            case .object(let box): .object(box.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value.node()) })
            case .array(let box): .array(box.items.map { $0.node() })
            }
        }
    }

    fileprivate final class ObjectBox {
        var members: [String: Slot] = [:]
    }

    fileprivate final class ArrayBox {
        var items: [Slot] = []
    }

    fileprivate static func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Slot {
        switch value {
        case let url as URL: return .value(.string(url.absoluteString))
        case let data as Data: return .value(.string(data.base64EncodedString()))
        case let date as Date: return .value(number(date.timeIntervalSinceReferenceDate))
        case let decimal as Decimal: return .value(.number(decimal.description))
        default:
            let encoder = NodeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.slot ?? .object(ObjectBox())
        }
    }

    static func number(_ value: Double) -> JSONNode {
        guard value.isFinite else { return .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }

    static func number(_ value: Float) -> JSONNode {
        guard value.isFinite else { return .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

private typealias Slot = JSONNodeEncoder.Slot

private final class NodeEncoder: Encoder, SingleValueEncodingContainer {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var slot: Slot?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONNodeEncoder.ObjectBox
        if case .object(let existing)? = slot {
            box = existing
        } else {
            box = JSONNodeEncoder.ObjectBox()
            slot = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONNodeEncoder.ArrayBox
        if case .array(let existing)? = slot {
            box = existing
        } else {
            box = JSONNodeEncoder.ArrayBox()
            slot = .array(box)
        }
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { slot = .value(.null) }
    func encode(_ value: Bool) throws { slot = .value(.bool(value)) }
    func encode(_ value: String) throws { slot = .value(.string(value)) }
    func encode(_ value: Double) throws { slot = .value(JSONNodeEncoder.number(value)) }
    func encode(_ value: Float) throws { slot = .value(JSONNodeEncoder.number(value)) }
    func encode(_ value: Int) throws { slot = .value(.number(String(value))) }
    func encode(_ value: Int8) throws { slot = .value(.number(String(value))) }
    func encode(_ value: Int16) throws { slot = .value(.number(String(value))) }
    func encode(_ value: Int32) throws { slot = .value(.number(String(value))) }
    func encode(_ value: Int64) throws { slot = .value(.number(String(value))) }
    func encode(_ value: UInt) throws { slot = .value(.number(String(value))) }
    func encode(_ value: UInt8) throws { slot = .value(.number(String(value))) }
    func encode(_ value: UInt16) throws { slot = .value(.number(String(value))) }
    func encode(_ value: UInt32) throws { slot = .value(.number(String(value))) }
    func encode(_ value: UInt64) throws { slot = .value(.number(String(value))) }
    func encode<T: Encodable>(_ value: T) throws { slot = try JSONNodeEncoder.box(value, codingPath: codingPath) }
}

/// An encoder whose result goes into a parent container when it is done (`superEncoder`).
private final class DeferredEncoder: Encoder {
    private let inner: NodeEncoder
    private let store: (Slot) -> Void
    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey], store: @escaping (Slot) -> Void) {
        inner = NodeEncoder(codingPath: codingPath)
        self.store = store
    }

    deinit { store(inner.slot ?? .object(JSONNodeEncoder.ObjectBox())) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        inner.container(keyedBy: type)
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { inner.unkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { inner }
}

private struct SuperKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: JSONNodeEncoder.ObjectBox
    let codingPath: [any CodingKey]

    private func put(_ node: JSONNode, _ key: Key) { box.members[key.stringValue] = .value(node) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(JSONNodeEncoder.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(JSONNodeEncoder.number(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.members[key.stringValue] = try JSONNodeEncoder.box(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = JSONNodeEncoder.ObjectBox()
        box.members[key.stringValue] = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONNodeEncoder.ArrayBox()
        box.members[key.stringValue] = .array(nested)
        return UnkeyedContainer(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let box = self.box
        return DeferredEncoder(codingPath: codingPath + [SuperKey(stringValue: "super")]) { box.members["super"] = $0 }
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let box = self.box
        return DeferredEncoder(codingPath: codingPath + [key]) { box.members[key.stringValue] = $0 }
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: JSONNodeEncoder.ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    private var nextPath: [any CodingKey] { codingPath + [SuperKey(intValue: box.items.count)] }
    private func put(_ node: JSONNode) { box.items.append(.value(node)) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(JSONNodeEncoder.number(value)) }
    mutating func encode(_ value: Float) throws { put(JSONNodeEncoder.number(value)) }
    mutating func encode(_ value: Int) throws { put(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { put(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { put(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { put(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { put(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { put(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { put(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { put(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { put(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { put(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try JSONNodeEncoder.box(value, codingPath: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = JSONNodeEncoder.ObjectBox()
        let path = nextPath
        box.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONNodeEncoder.ArrayBox()
        let path = nextPath
        box.items.append(.array(nested))
        return UnkeyedContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let box = self.box
        let index = box.items.count
        let path = nextPath
        box.items.append(.value(.null))
        return DeferredEncoder(codingPath: path) { box.items[index] = $0 }
    }
}
