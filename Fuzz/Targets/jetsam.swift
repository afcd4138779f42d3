// libFuzzer target `jetsam`: JetsamEvent bodies, behind an .ips header or bare. Differential: the reader
// takes the processes as the parser meets them (`ProcessReader`); here every input also goes through the
// tree (`JSON.parsePrefix`, then `JetsamParser.parse(body:header:)`), and any difference in the event, the
// end offset or an error is a finding (a trap). The header is held to the tree's reading of it
// (Fuzz/Reference/ReferenceIPSHeader.swift).
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let sniffed = ArtifactReader.sniffIPSHeader(bytes)
    let reference = ReferenceIPSHeader.sniff(bytes)
    if sniffed?.header != reference?.header || sniffed?.bodyOffset != reference?.bodyOffset {
        fatalError("headers differ: \(sniffed as Any) / \(reference as Any)")
    }
    let start = sniffed?.bodyOffset ?? 0
    let header = sniffed?.header

    let tree: Result<(JSONValue, Int), FormatError>
    do throws(FormatError) { tree = .success(try JSON.parsePrefix(bytes, from: start)) } catch {
        tree = .failure(error)
    }
    let reader = ProcessReader()
    let visited: Result<(JSONValue, Bool, Int), FormatError>
    do throws(FormatError) {
        visited = .success(try JSON.parsePrefix(bytes, from: start, visitingElementsOf: "processes", with: reader))
    } catch {
        visited = .failure(error)
    }
    switch (tree, visited) {
    case (.failure(let a), .failure(let b)):
        if a != b { fatalError("JSON errors differ: \(a) / \(b)") }
        return 0
    case (.success(let (value, end)), .success(let (partial, didVisit, visitedEnd))):
        if end != visitedEnd { fatalError("ends differ: \(end) / \(visitedEnd)") }
        _ = JetsamParser.isJetsamBody(value)
        let whole: Result<JetsamEvent, FormatError>
        do throws(FormatError) { whole = .success(try JetsamParser.parse(body: value, header: header)) } catch {
            whole = .failure(error)
        }
        let streamed: Result<JetsamEvent, FormatError>
        do throws(FormatError) {
            streamed = .success(
                try JetsamParser.parse(body: partial, header: header, processes: didVisit ? reader.processes : nil))
        } catch {
            streamed = .failure(error)
        }
        if whole != streamed { fatalError("events differ: \(whole) / \(streamed)") }
    default:
        fatalError("one path failed: \(tree) / \(visited)")
    }
    return 0
}
