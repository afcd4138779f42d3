import Foundation
import MemhuntBasics
import MemhuntHTTP
import MemhuntTestSupport
import Testing

@Suite struct ManifestTests {
    let base = URL(string: "https://host.example/runs/7/manifest.json?sig=abc")!

    @Test func parsesAllThreeShapes() throws {
        let hash = String(repeating: "AB", count: 32)
        let shapes = [
            #"["a.ips", "https://other.example/b.ips"]"#,
            #"[{"url": "a.ips"}, {"url": "https://other.example/b.ips", "sha256": "\#(hash)"}]"#,
            #"{"artifacts": [{"url": "a.ips"}, {"url": "https://other.example/b.ips", "sha256": "\#(hash)"}]}"#,
        ]
        for (number, json) in shapes.enumerated() {
            let entries = try Manifest.parse(json: Array(json.utf8), base: base)
            #expect(
                entries.map(\.url.absoluteString) == [
                    "https://host.example/runs/7/a.ips", "https://other.example/b.ips",
                ])
            #expect(entries.map(\.sha256) == [nil, number == 0 ? nil : hash.lowercased()])
        }
    }

    @Test(arguments: [
        (#"["file:///etc/passwd"]"#, "manifest entry 1: not an http(s) URL"),
        (#"[{"url": "a"}, {"sha256": "x"}]"#, "manifest entry 2: no \"url\" string"),
        (#"[{"url": "a", "sha256": "xyz"}]"#, "manifest entry 1: sha256 is not 64 hex digits"),
        (#"{"files": []}"#, "manifest is neither a list nor an object with an \"artifacts\" list"),
        ("[nope", "manifest is not valid JSON"),
    ])
    func rejectsBadManifests(json: String, message: String) {
        let error = #expect(throws: ManifestError.self) { try Manifest.parse(json: Array(json.utf8), base: base) }
        #expect(error?.description == message)
    }

    @Test func recognizesManifestsButNotReports() {
        #expect(Manifest.looksLikeManifest(Array(" \n[\"a.ips\"]".utf8)))
        #expect(Manifest.looksLikeManifest(Array("[ {\"url\": \"a\"}]".utf8)))
        #expect(Manifest.looksLikeManifest(Array("{\n  \"artifacts\": []}".utf8)))
        #expect(!Manifest.looksLikeManifest(Array("{\"app_name\":\"x\",\"bug_type\":\"298\"}\n{}".utf8)))
        #expect(!Manifest.looksLikeManifest(Array("Incident Identifier: 1".utf8)))
        #expect(!Manifest.looksLikeManifest([UInt8]()))
    }

    @Test func redactsCredentialsAndQueryValues() {
        #expect(
            Redact.url(URL(string: "https://u:p@h.example:8443/a/b?token=abc&flag&x=1#f")!)
                == "https://h.example:8443/a/b?token=…&…&x=…")
        #expect(Redact.url(URL(string: "http://h/x.ips")!) == "http://h/x.ips")
    }

    @Test func splitsHeaderArgumentsWithoutEchoingThem() throws {
        let header = try HTTPConfiguration.header("X-Api-Key:  v a l ")
        #expect(header.name == "X-Api-Key")
        #expect(header.value == "v a l")
        let error = #expect(throws: HeaderError.self) { try HTTPConfiguration.header("secretvalue") }
        #expect(error?.description == "a header argument is not of the form 'Name: value'")
    }

    @Test(.enabled(if: FaultServer.available, "needs python3")) func manifestOverHTTPExpands() async throws {
        let manifest = #"{"artifacts": [{"url": "x.ips", "sha256": "\#(SHA256.hex(Harness.body))"}, "sub/y.ips"]}"#
        let h = try await Harness(files: ["m/manifest.json": Array(manifest.utf8), "m/sub/y.ips": [1, 2, 3]])
        defer { h.stop() }
        try h.root.write("m/x.ips", Harness.body)
        let fetched = await h.download("m/manifest.json")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try #require(fetched.localPath))))
        #expect(Manifest.looksLikeManifest(bytes))
        let entries = try Manifest.parse(json: bytes, base: h.server.url("m/manifest.json"))
        #expect(
            entries == [
                ManifestEntry(url: h.server.url("m/x.ips"), sha256: SHA256.hex(Harness.body)),
                ManifestEntry(url: h.server.url("m/sub/y.ips")),
            ])
        let results = await h.download(entries.map { DownloadRequest(url: $0.url, expectedSHA256: $0.sha256) })
        #expect(results.map(\.error) == [nil, nil])
        #expect(results.map(\.size) == [5000, 3])
    }
}
