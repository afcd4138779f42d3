import MemhuntBasics
import MemhuntYAML

/// Every problem found while loading a playbook, rendered one per line as `file:line:col: error: …`.
public struct PlaybookLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Turns playbook YAML into a `Playbook`, reporting every problem at once with its location.
public struct PlaybookLoader: Sendable {
    /// The checks a playbook may name under `checks: - id:` (the built-in checks, injected by the caller).
    public var knownChecks: [CheckDescription]

    /// A loader that accepts the given checks.
    public init(knownChecks: [CheckDescription]) { self.knownChecks = knownChecks }

    /// Loads playbook text; `origin` is the file part of every diagnostic and the playbook's origin.
    public func load(text: String, origin: String, directory: String?, isRemote: Bool) -> Result<
        Playbook, PlaybookLoadError
    > {
        let root: YAMLNode
        do {
            root = try YAMLParser.parse(text)
        } catch {
            let location = SourceLocation(file: origin, line: error.mark.line, column: error.mark.column)
            return .failure(PlaybookLoadError(diagnostics: [Diagnostic(.error, error.message, at: location)]))
        }
        var decoder = PlaybookDecoder(file: origin, knownChecks: knownChecks)
        let playbook = decoder.playbook(root, origin: origin, directory: directory, isRemote: isRemote)
        let diagnostics = decoder.sortedDiagnostics
        guard var playbook, diagnostics.isEmpty else { return .failure(PlaybookLoadError(diagnostics: diagnostics)) }
        playbook.sha256 = SHA256.hex(Array(text.utf8))
        return .success(playbook)
    }
}

extension PlaybookLoader {
    /// A shipped playbook by id, loaded from the copy compiled into the binary; nil for an unknown id.
    public func builtIn(_ id: String) -> Result<Playbook, PlaybookLoadError>? {
        BuiltInPlaybooks.all.first { $0.id == id }.map {
            load(text: $0.text, origin: "built-in:\($0.id)", directory: nil, isRemote: false)
        }
    }
}
