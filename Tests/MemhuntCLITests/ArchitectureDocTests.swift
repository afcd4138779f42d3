import Foundation
import MemhuntTestSupport
import Testing

/// docs/architecture.md's "which module may import which" is Package.swift's dependency lists, row for row.
struct ArchitectureDocTests {
    /// Target name → its dependencies, read from Package.swift's `.target`, `.executableTarget` and
    /// `.systemLibrary` entries (test targets left out).
    static func packageGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: Repo.root + "/Package.swift", encoding: .utf8)
        let entry = try Regex(
            #"\.(target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(,\s*dependencies:\s*\[((?:[^\[\]]|\[[^\[\]]*\])*)\])?"#
        )
        var graph: [String: Set<String>] = [:]
        for match in text.matches(of: entry) {
            let name = String(try #require(match.output[2].substring))
            let list = match.output[4].substring.map(String.init) ?? ""
            graph[name] = Set(list.matches(of: #/"([^"]+)"/#).map { String($0.output.1) })
        }
        return graph
    }

    /// Module → the modules its row names, from the Markdown table.
    static func documentedGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: Repo.root + "/docs/architecture.md", encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            let module = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            graph[module] = Set(cells[1].matches(of: #/`([A-Za-z]+)`/#).map { String($0.output.1) })
        }
        return graph
    }

    @Test func theImportTableIsThePackageGraph() throws {
        let package = try Self.packageGraph()
        let documented = try Self.documentedGraph()
        #expect(package["MemhuntCore"]?.contains("MemhuntHTTP") == false, "the core does no I/O")
        #expect(package["MemhuntFormats"] == [])
        let modules = package.keys.filter { !$0.hasPrefix("C") && $0 != "MemhuntTestSupport" }.sorted()
        #expect(modules.count >= 12)
        #expect(documented.keys.sorted() == modules)
        for module in modules {
            #expect(documented[module] == package[module], "\(module)")
        }
    }

    /// Every `import` of a package module in a module's sources is in its row: a module reached only through
    /// another (Swift lets it be imported) is not imported until the table and Package.swift name it.
    @Test func everyImportLineIsInItsModulesRow() throws {
        let package = try Self.packageGraph()
        let documented = try Self.documentedGraph()
        let importLine = #/^\s*(?:@testable\s+|@_implementationOnly\s+|public\s+)?import\s+(\w+)/#
        var checked = 0
        for (module, allowed) in documented {
            let folder = Repo.root + "/Sources/" + module
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let match = line.firstMatch(of: importLine) else { continue }
                    let name = String(match.output.1)
                    // Only the package's own modules: Foundation, Glibc, Darwin's CommonCrypto are the platform's.
                    guard package[name] != nil else { continue }
                    checked += 1
                    #expect(allowed.contains(name), "\(module)/\(file) imports \(name), which its row does not name")
                }
            }
        }
        #expect(checked >= 100)
    }
}
