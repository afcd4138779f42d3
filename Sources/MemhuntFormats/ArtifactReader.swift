/// Entry point of the leaf: bytes in, kind and typed value out. No I/O.
public enum ArtifactReader {
    /// Detects the kind from content and parses it.
    ///
    /// Empty input, binary input and unknown text are errors with `kind == nil`; a known kind whose
    /// body is truncated or invalid keeps its kind and carries the error.
    public static func read(_ bytes: [UInt8]) -> ReadOutcome {
        ReadOutcome(kind: nil, result: .failure(FormatError("not implemented")))
    }
}
