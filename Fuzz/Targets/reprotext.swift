// libFuzzer target `reprotext`: ReproText's byte fast paths, differential against the `Character`-level
// helpers they replaced (Fuzz/Reference/ReferenceReproText.swift): lines, tokens, trimming, numbers,
// sizes and marker search must agree on every input (spaces before combining marks, U+212A KELVIN SIGN).
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = ReproText.lines(bytes)
    precondition(lines == ReferenceReproText.lines(bytes), "lines differ")
    precondition(
        ReproText.lines(bytes.dropFirst()) == ReferenceReproText.lines(bytes.dropFirst()), "slice lines differ")
    // Few needles: the oracle (`String.contains`) is slow, and one plain marker covers the byte path.
    let markers = ["ViewGraph", "K", "é", ""]
    for line in lines {
        let tokens = ReproText.tokens(line)
        precondition(tokens == ReferenceReproText.tokens(line), "tokens of '\(line)' differ")
        precondition(ReproText.trimmed(line) == ReferenceReproText.trimmed(line), "trimmed '\(line)' differs")
        let trimmed = ReproText.trimmed(line)
        precondition(ReproText.trimmed(trimmed.dropFirst()) == ReferenceReproText.trimmed(trimmed.dropFirst()))
        for token in tokens {
            precondition(ReproText.decimal(token) == ReferenceReproText.decimal(token), "decimal '\(token)'")
            precondition(ReproText.binarySize(token) == ReferenceReproText.binarySize(token), "size '\(token)'")
        }
        for (number, unit) in zip(tokens, tokens.dropFirst()) {
            precondition(ReproText.unitSize(number, unit) == ReferenceReproText.unitSize(number, unit))
        }
        for marker in markers {
            precondition(ReproText.containsText(line, marker) == line.contains(marker), "'\(marker)' in '\(line)'")
        }
        // Needles taken from the input itself (a token), against the rest of the line.
        if let needle = tokens.last.map(String.init) {
            precondition(ReproText.containsText(line, needle) == line.contains(needle))
        }
    }
    return 0
}
