// libFuzzer target `json`: the JSON parser, whole documents and prefixes. Differential: `JSON.visitPrefix`
// (validated, not built) must accept, end and fail exactly where `JSON.parsePrefix` does, and each member it
// hands over must build, and answer, as the tree's member does.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSON.parse(bytes)
    let offset = bytes.first.map { Int($0) % (bytes.count + 1) } ?? 0
    let tree: Result<(JSONValue, Int), FormatError>
    do throws(FormatError) { tree = .success(try JSON.parsePrefix(bytes, from: offset)) } catch {
        tree = .failure(error)
    }
    var members: [JSONMember] = []
    let visited: Result<(Bool, Int), FormatError>
    do throws(FormatError) {
        visited = .success(
            try JSON.visitPrefix(bytes, from: offset) { key, value in
                let built = value.built
                precondition(value.string == built.string, "string differs: \(built)")
                precondition(value.uint64 == built.uint64 && value.int == built.int, "integer differs: \(built)")
                precondition(value.strings == built.elements?.compactMap(\.string), "strings differ: \(built)")
                members.append(JSONMember(key: String(decoding: key, as: UTF8.self), value: built))
            })
    } catch {
        visited = .failure(error)
    }
    switch (tree, visited) {
    case (.failure(let a), .failure(let b)): precondition(a == b, "errors differ: \(a) / \(b)")
    case (.success(let (value, end)), .success(let (isObject, visitedEnd))):
        precondition(end == visitedEnd, "ends differ: \(end) / \(visitedEnd)")
        precondition(isObject == (value.members != nil), "object or not differs")
        if isObject { precondition(value.members == members, "members differ: \(value) / \(members)") }
    default: preconditionFailure("one way failed: \(tree) / \(visited)")
    }
    return 0
}
