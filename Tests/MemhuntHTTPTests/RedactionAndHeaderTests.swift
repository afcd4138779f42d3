import Foundation
import MemhuntBasics
import MemhuntHTTP
import MemhuntTestSupport
import Testing

@Suite struct RedactionAndHeaderTests {
    @Test func redactsCredentialsAndQueryValues() {
        #expect(
            Redact.url(URL(string: "https://u:p@h.example:8443/a/b?token=abc&flag&x=1#f")!)
                == "https://h.example:8443/a/b?token=…&…&x=…")
        #expect(Redact.url(URL(string: "http://h/x.ips")!) == "http://h/x.ips")
    }

    @Test func invalidURLsLoseEverythingUpToTheLastAt() {
        #expect(Redact.invalidURL("http://u:PA?SS#WD@bad host/x") == "http://…@bad host/x")
        #expect(Redact.invalidURL("https://user:p/w@ho st/x?token=t#f") == "https://…@ho st/x")
        #expect(Redact.invalidURL("http://bad host/x?q=1") == "http://bad host/x")
    }

    @Test func splitsHeaderArgumentsWithoutEchoingThem() throws {
        let header = try HTTPConfiguration.header("X-Api-Key:  v a l ")
        #expect(header.name == "X-Api-Key")
        #expect(header.value == "v a l")
        let error = #expect(throws: HeaderError.self) { try HTTPConfiguration.header("secretvalue") }
        #expect(error?.description == "a header argument is not of the form 'Name: value'")
    }
}
