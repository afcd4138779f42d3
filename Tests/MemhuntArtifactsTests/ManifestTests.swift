import Foundation
import MemhuntArtifacts
import MemhuntCore
import Testing

@Suite struct ManifestTests {
    let base = URL(string: "https://host.example/runs/7/manifest.json?sig=abc")!
    static let hash = String(repeating: "AB", count: 32)

    @Test(arguments: [
        #"["a.ips", "https://other.example/b.ips"]"#,
        #"[{"url": "a.ips"}, {"url": "https://other.example/b.ips", "sha256": "\#(hash)"}]"#,
        #"{"artifacts": [{"url": "a.ips"}, {"url": "https://other.example/b.ips", "sha256": "\#(hash)"}]}"#,
        "- a.ips\n- https://other.example/b.ips\n",
        "artifacts:\n  - url: a.ips\n  - url: https://other.example/b.ips\n    sha256: \(hash)\n",
    ])
    func parsesEveryShape(text: String) throws {
        let bytes = Array(text.utf8)
        #expect(Manifest.looksLikeManifest(bytes))
        let entries = try Manifest.parse(bytes)
        #expect(entries.map(\.reference) == ["a.ips", "https://other.example/b.ips"])
        #expect(entries[0].sha256 == nil)
        #expect(entries[1].sha256 == nil || entries[1].sha256 == Self.hash.lowercased())
        let urls = try entries.enumerated().map { try Manifest.resolve($1, against: base, number: $0 + 1) }
        #expect(urls.map(\.absoluteString) == ["https://host.example/runs/7/a.ips", "https://other.example/b.ips"])
    }

    @Test(arguments: [
        (#"[{"url": "a"}, {"sha256": "x"}]"#, "manifest entry 2 (index 1): no \"url\" string"),
        (#"[{"url": "a", "sha256": "xyz"}]"#, "manifest entry 1 (index 0, a): sha256 is not 64 hex digits"),
        (#"{"files": []}"#, "manifest is neither a list nor an object with an \"artifacts\" list"),
        ("[nope: [", "manifest is neither valid JSON nor valid YAML (line 2)"),
    ])
    func rejectsBadManifests(text: String, message: String) {
        let error = #expect(throws: ManifestError.self) { try Manifest.parse(Array(text.utf8)) }
        #expect(error?.description == message)
    }

    /// `read` names each malformed entry without the tokens its URL may carry, and keeps the others.
    @Test func readNamesMalformedEntriesWithoutTheirSecrets() throws {
        let text = #"[{"url": "https://u:pw@h.example/b.ips?sig=SECRET", "sha256": "zz"}, "a.ips", false]"#
        let read = try Manifest.read(Array(text.utf8))
        #expect(read.count == 3)
        #expect(try read[1].get() == ManifestEntry("a.ips"))
        let errors = read.compactMap { if case .failure(let error) = $0 { error.description } else { nil } }
        #expect(
            errors == [
                "manifest entry 1 (index 0, https://h.example/b.ips): sha256 is not 64 hex digits",
                "manifest entry 3 (index 2): a boolean, not a path or URL string nor an object with a \"url\" string",
            ])
        // A list none of whose items could be an entry is no manifest.
        #expect(throws: ManifestError.self) { try Manifest.read(Array("[null, 1]".utf8)) }
        // Nor a list of objects without a url (xcresulttool's metrics JSON).
        #expect(throws: ManifestError.self) { try Manifest.read(Array(#"[{"name": "m", "value": 1}]"#.utf8)) }
    }

    @Test func onlyHTTPEntriesResolveAgainstAURL() {
        let error = #expect(throws: ManifestError.self) {
            try Manifest.resolve(ManifestEntry("file:///etc/passwd"), against: base, number: 3)
        }
        #expect(error?.description == "manifest entry 3: not an http(s) URL")
    }

    @Test func recognizesManifestsButNotReportsOrLogs() {
        #expect(!Manifest.looksLikeManifest(Array("{\"app_name\":\"x\",\"bug_type\":\"298\"}\n{}".utf8)))
        #expect(!Manifest.looksLikeManifest(Array("Incident Identifier: 1".utf8)))
        #expect(!Manifest.looksLikeManifest(Array("--- launch ---\nRootView: @self changed.\n".utf8)))
        #expect(!Manifest.looksLikeManifest(Array("id: memory-hunt\nsteps: []\n".utf8)))
        #expect(!Manifest.looksLikeManifest([]))
        #expect(Manifest.looksLikeManifest(Array("# incident 42\n\n- a.ips\n".utf8)))
    }
}
