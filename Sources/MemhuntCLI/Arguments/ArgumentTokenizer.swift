/// One element of argv, classified.
public enum ArgumentToken: Sendable, Equatable {
    /// `--name` or `--name=value`; the name has no dashes.
    case long(String, value: String?)
    /// `-abc`: one or more bundled short names.
    case shorts([Character])
    /// A word that is not an option, including `-` and everything after `--`.
    case positional(String)
    /// `--`, after which every word is positional.
    case terminator

    /// Classifies each element of `arguments` (argv without the program name).
    public static func tokenize(_ arguments: [String]) -> [ArgumentToken] {
        var tokens: [ArgumentToken] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                tokens.append(.terminator)
                tokens += arguments[(index + 1)...].map(ArgumentToken.positional)
                break
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                guard let equals = body.firstIndex(of: "=") else {
                    tokens.append(.long(String(body), value: nil))
                    continue
                }
                tokens.append(.long(String(body[..<equals]), value: String(body[body.index(after: equals)...])))
            } else if argument.hasPrefix("-") && argument.count > 1 {
                tokens.append(.shorts(Array(argument.dropFirst())))
            } else {
                tokens.append(.positional(argument))
            }
        }
        return tokens
    }

    /// Whether the token is `-h`, `--help`, or a bundle containing `h`.
    var requestsHelp: Bool {
        switch self {
        case .long("help", _): true
        case .shorts(let names): names.contains("h")
        default: false
        }
    }

    /// Whether the token is `--version`.
    var requestsVersion: Bool {
        if case .long("version", _) = self { true } else { false }
    }
}
