import MemhuntBasics

/// A finding's name across runs and machines: 16 hex digits of SHA-256 over what the finding is about (the
/// playbook, the step, the code, the app, the pattern it names, and its title with every number and address
/// as `#`: the process, test, view or cycle the title names stay, the figures that move between runs go).
/// Never the run's id or time, nor a path: the same folder copied elsewhere and run again gives the same
/// signatures, on Linux and macOS alike. Findings of one run that would share one (one code, titles that
/// differ only in numbers) are told apart by their order: the second is `occurrence` 2.
public enum FindingSignature {
    public static func of(_ finding: Finding, playbook: String, app: String?, occurrence: Int = 1) -> String {
        var parts = [playbook, finding.step, finding.code, app ?? "", finding.pattern ?? "", normalized(finding.title)]
        if occurrence > 1 { parts.append(String(occurrence)) }
        return String(SHA256.hex(Array(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
    }

    /// `title` with each number (`1,184`, `0.5`, `+11`) and each `0x…` address as `#`.
    static func normalized(_ title: String) -> String {
        let scalars = Array(title.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < scalars.count && ("0"..."9").contains(scalars[at]) }
        func isHex(_ at: Int) -> Bool {
            at < scalars.count
                && (isDigit(at) || ("a"..."f").contains(scalars[at]) || ("A"..."F").contains(scalars[at]))
        }
        while index < scalars.count {
            if scalars[index] == "0", index + 2 < scalars.count, scalars[index + 1] == "x", isHex(index + 2) {
                index += 2
                while isHex(index) { index += 1 }
                out.append("#")
            } else if isDigit(index) {
                while isDigit(index)
                    || (index < scalars.count && (scalars[index] == "," || scalars[index] == ".") && isDigit(index + 1))
                {
                    index += 1
                }
                out.append("#")
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }
}
