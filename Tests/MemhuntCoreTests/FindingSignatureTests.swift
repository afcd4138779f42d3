import Testing

@testable import MemhuntCore

/// A finding's signature: what it is about, without the numbers that move between runs.
@Suite struct FindingSignatureTests {
    static func finding(_ title: String, code: String = "jetsam-rank.dominant", step: String = "jetsam-record")
        -> Finding
    {
        Finding(code: code, step: step, severity: .warning, title: title, detail: "")
    }

    @Test func numbersAndAddressesAreNotPartOfIt() {
        #expect(
            FindingSignature.normalized("JustSend held 122 MB while suspended, 1,184 bytes at 0x10b2f1e00 (+11)")
                == "JustSend held # MB while suspended, # bytes at # (+#)")
        #expect(FindingSignature.normalized("ends in a number 42") == "ends in a number #")
        #expect(FindingSignature.normalized("a comma, then 7.") == "a comma, then #.")
        #expect(FindingSignature.normalized("0x") == "#x")
        let a = FindingSignature.of(
            Self.finding("JustSend peaked at 725 MB, rank 7"), playbook: "memory-hunt", app: "JustSend")
        let b = FindingSignature.of(
            Self.finding("JustSend peaked at 611 MB, rank 3"), playbook: "memory-hunt", app: "JustSend")
        #expect(a == b && a.count == 16)
    }

    @Test func whatTheFindingIsAboutChangesIt() {
        let base = FindingSignature.of(
            Self.finding("JustSend peaked at 725 MB"), playbook: "memory-hunt", app: "JustSend")
        #expect(
            FindingSignature.of(Self.finding("Photos peaked at 725 MB"), playbook: "memory-hunt", app: "JustSend")
                != base)
        #expect(
            FindingSignature.of(Self.finding("JustSend peaked at 725 MB"), playbook: "memory-hunt", app: "Other")
                != base)
        #expect(
            FindingSignature.of(
                Self.finding("JustSend peaked at 725 MB", code: "x.y"), playbook: "memory-hunt", app: "JustSend")
                != base)
        #expect(
            FindingSignature.of(
                Self.finding("JustSend peaked at 725 MB"), playbook: "memory-hunt", app: "JustSend", occurrence: 2)
                != base)
    }
}
