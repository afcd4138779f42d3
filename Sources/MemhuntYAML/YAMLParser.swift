import CYaml

/// Parses YAML text with libyaml.
public enum YAMLParser {
    /// Most nodes a document may expand to, aliases included (guards against alias bombs).
    public static let nodeBudget = 100_000
    /// Deepest nesting of sequences and mappings accepted.
    public static let maxDepth = 256

    /// Parses a single-document YAML text. An empty document is an empty mapping. `budget` is the most nodes
    /// it may expand to (a ledger of thousands of entries takes one in proportion to its size).
    public static func parse(_ text: String, budget: Int = nodeBudget) throws(YAMLError) -> YAMLNode {
        // libyaml reads from this buffer until the parser is deleted: it must outlive the parser.
        let utf8 = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(utf8.count, 1))
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: utf8)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw YAMLError(message: "cannot initialize the YAML parser", mark: Mark(line: 1, column: 1))
        }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_input_string(parser, buffer.baseAddress, utf8.count)
        var builder = Builder(parser: parser, budget: budget)
        return try builder.document()
    }
}

/// One libyaml event, copied into Swift values so the C event can be deleted at once.
private enum Event {
    case streamStart, streamEnd, documentStart, documentEnd
    case alias(String)
    case scalar(String, anchor: String?, plain: Bool)
    case sequenceStart(anchor: String?)
    case sequenceEnd
    case mappingStart(anchor: String?)
    case mappingEnd
}

/// Turns the event stream into a `YAMLNode`, resolving aliases by copying the anchored node.
private struct Builder {
    let parser: UnsafeMutablePointer<yaml_parser_t>
    /// Anchored nodes with the nodes they hold and their height (levels of nesting below and including them).
    var anchors: [String: (node: YAMLNode, size: Int, height: Int)] = [:]
    var nodeCount = 0
    let budget: Int

    init(parser: UnsafeMutablePointer<yaml_parser_t>, budget: Int) {
        self.parser = parser
        self.budget = budget
    }

    mutating func document() throws(YAMLError) -> YAMLNode {
        guard case .streamStart = try next().event else { throw unexpected(Mark(line: 1, column: 1)) }
        let (first, firstMark) = try next()
        switch first {
        case .streamEnd: return .mapping([], firstMark)
        case .documentStart: break
        default: throw unexpected(firstMark)
        }
        let (event, mark) = try next()
        var root = try node(event, mark, depth: 0).node
        if case .scalar("", true, let m) = root { root = .mapping([], m) }
        guard case .documentEnd = try next().event else { throw unexpected(mark) }
        let (after, afterMark) = try next()
        switch after {
        case .streamEnd: return root
        case .documentStart: throw YAMLError(message: "expected a single YAML document", mark: afterMark)
        default: throw unexpected(afterMark)
        }
    }

    /// Builds the node that starts with `event`, consuming the events of its children; returns it with its height. An
    /// alias counts with the height of what it copies: a chain of aliases each nesting the last (`a2: &a2 [*a1]`)
    /// passed the depth limit at ~6,700 levels, and a playbook of a few kilobytes then took gigabytes of memory.
    mutating func node(_ event: Event, _ mark: Mark, depth: Int) throws(YAMLError) -> (node: YAMLNode, height: Int) {
        guard depth <= YAMLParser.maxDepth else {
            throw YAMLError(message: "nesting deeper than \(YAMLParser.maxDepth) levels", mark: mark)
        }
        switch event {
        case .alias(let name):
            guard let anchored = anchors[name] else {
                throw YAMLError(message: "unknown anchor '\(name)'", mark: mark)
            }
            guard depth + anchored.height - 1 <= YAMLParser.maxDepth else {
                throw YAMLError(
                    message: "nesting deeper than \(YAMLParser.maxDepth) levels (through alias '\(name)')", mark: mark)
            }
            try spend(anchored.size, at: mark)
            return (anchored.node, anchored.height)
        case .scalar(let value, let anchor, let plain):
            try spend(1, at: mark)
            return remember(.scalar(value, plain: plain, mark), height: 1, anchor: anchor, since: nodeCount - 1)
        case .sequenceStart(let anchor):
            try spend(1, at: mark)
            let start = nodeCount - 1
            var items: [YAMLNode] = []
            var height = 1
            while true {
                let (child, childMark) = try next()
                if case .sequenceEnd = child { break }
                let built = try node(child, childMark, depth: depth + 1)
                items.append(built.node)
                height = max(height, built.height + 1)
            }
            return remember(.sequence(items, mark), height: height, anchor: anchor, since: start)
        case .mappingStart(let anchor):
            try spend(1, at: mark)
            let start = nodeCount - 1
            var pairs: [(key: String, keyMark: Mark, value: YAMLNode)] = []
            var height = 1
            while true {
                let (keyEvent, keyMark) = try next()
                if case .mappingEnd = keyEvent { break }
                guard case .scalar(let key, _, _) = try node(keyEvent, keyMark, depth: depth + 1).node else {
                    throw YAMLError(message: "mapping keys must be scalars", mark: keyMark)
                }
                let (valueEvent, valueMark) = try next()
                let built = try node(valueEvent, valueMark, depth: depth + 1)
                pairs.append((key, keyMark, built.node))
                height = max(height, built.height + 1)
            }
            return remember(.mapping(pairs, mark), height: height, anchor: anchor, since: start)
        default:
            throw unexpected(mark)
        }
    }

    /// Records an anchored node with the number of nodes it holds and its height, then returns it.
    mutating func remember(_ node: YAMLNode, height: Int, anchor: String?, since start: Int) -> (
        node: YAMLNode, height: Int
    ) {
        if let anchor { anchors[anchor] = (node, nodeCount - start, height) }
        return (node, height)
    }

    mutating func spend(_ nodes: Int, at mark: Mark) throws(YAMLError) {
        nodeCount += nodes
        guard nodeCount <= budget else {
            throw YAMLError(message: "document expands to more than \(budget) nodes", mark: mark)
        }
    }

    func unexpected(_ mark: Mark) -> YAMLError { YAMLError(message: "unexpected YAML event", mark: mark) }

    /// The next event and its 1-based start mark; a libyaml error becomes a `YAMLError`.
    func next() throws(YAMLError) -> (event: Event, mark: Mark) {
        var raw = yaml_event_t()
        guard yaml_parser_parse(parser, &raw) == 1 else {
            let p = parser.pointee
            throw YAMLError(
                message: p.problem.map { String(cString: $0) } ?? "invalid YAML",
                mark: Mark(line: Int(p.problem_mark.line) + 1, column: Int(p.problem_mark.column) + 1))
        }
        defer { yaml_event_delete(&raw) }
        let mark = Mark(line: Int(raw.start_mark.line) + 1, column: Int(raw.start_mark.column) + 1)
        func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }
        switch raw.type {
        case YAML_STREAM_START_EVENT: return (.streamStart, mark)
        case YAML_STREAM_END_EVENT: return (.streamEnd, mark)
        case YAML_DOCUMENT_START_EVENT: return (.documentStart, mark)
        case YAML_DOCUMENT_END_EVENT: return (.documentEnd, mark)
        case YAML_ALIAS_EVENT: return (.alias(string(raw.data.alias.anchor) ?? ""), mark)
        case YAML_SCALAR_EVENT:
            let s = raw.data.scalar
            let value = String(decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
            return (.scalar(value, anchor: string(s.anchor), plain: s.style == YAML_PLAIN_SCALAR_STYLE), mark)
        case YAML_SEQUENCE_START_EVENT: return (.sequenceStart(anchor: string(raw.data.sequence_start.anchor)), mark)
        case YAML_SEQUENCE_END_EVENT: return (.sequenceEnd, mark)
        case YAML_MAPPING_START_EVENT: return (.mappingStart(anchor: string(raw.data.mapping_start.anchor)), mark)
        case YAML_MAPPING_END_EVENT: return (.mappingEnd, mark)
        default: throw unexpected(mark)
        }
    }
}
