import MemhuntCore

extension CommandSpec {
    /// Resolves `arguments` (argv without the program name) against this root command.
    ///
    /// Subcommand names are recognised before any option; `-h`/`--help` anywhere before `--` and
    /// `help <subcommand>…` ask for help; a command with subcommands given none asks for its own help.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        var tokens = ArgumentToken.tokenize(arguments)[...]
        var path = [name]
        var command = self
        while !command.subcommands.isEmpty {
            guard let token = tokens.popFirst() else { return .help(path: path) }
            switch token {
            case .positional("help"):
                return .help(path: try helpPath(for: tokens))
            case .positional(let word):
                command = try command.subcommand(word, at: path)
                path.append(word)
            case .terminator:
                continue
            case _ where token.requestsHelp:
                return .help(path: path)
            case _ where token.requestsVersion && command.hasVersionFlag:
                return .version
            case .long(let long, _):
                throw command.unknownOption("--" + long, at: path)
            case .shorts(let names):
                throw command.unknownOption("-\(names[0])", at: path)
            }
        }
        return try command.parseLeaf(Array(tokens), at: path)
    }

    /// The command path named by the words after `help`.
    private func helpPath(for tokens: ArraySlice<ArgumentToken>) throws(UsageError) -> [String] {
        var path = [name]
        var command = self
        for case .positional(let word) in tokens {
            command = try command.subcommand(word, at: path)
            path.append(word)
        }
        return path
    }

    /// The subcommand named `word`, or an error suggesting the closest name.
    private func subcommand(_ word: String, at path: [String]) throws(UsageError) -> CommandSpec {
        guard let command = subcommands.first(where: { $0.name == word }) else {
            let guess = Suggestion.closest(to: word, among: subcommands.map(\.name))
            throw UsageError(path: path, reason: .unknownSubcommand(word, suggestion: guess))
        }
        return command
    }

    private func parseLeaf(_ tokens: [ArgumentToken], at path: [String]) throws(UsageError) -> ParseOutcome {
        let optionTokens = tokens.prefix { $0 != .terminator }
        if optionTokens.contains(where: \.requestsHelp) { return .help(path: path) }
        if hasVersionFlag, optionTokens.contains(where: \.requestsVersion) { return .version }
        var values = ParsedValues(command: self)
        var index = tokens.startIndex
        func bind(_ typed: String, inline: String?, last: Bool = true) throws(UsageError) {
            guard let option = option(named: typed) else { throw unknownOption(typed, at: path) }
            if option.isFlag {
                if let inline { throw UsageError(path: path, reason: .unexpectedValue(inline, option: typed)) }
                values.flags.insert(option.name)
                return
            }
            var value = inline
            if value == nil, last, index < tokens.endIndex, case .positional(let next) = tokens[index] {
                value = next
                index += 1
            }
            guard let value else { throw UsageError(path: path, reason: .missingValue(option: typed)) }
            guard option.allowedValues.isEmpty || option.allowedValues.contains(value) else {
                throw UsageError(path: path, reason: .invalidValue(value, option: typed))
            }
            values.options[option.name, default: []].append(value)
        }
        while index < tokens.endIndex {
            let token = tokens[index]
            index += 1
            switch token {
            case .terminator: continue
            case .positional(let value): values.positionals.append(value)
            case .long(let long, let inline): try bind("--" + long, inline: inline)
            case .shorts(let names):
                for (offset, short) in names.enumerated() {
                    try bind("-\(short)", inline: nil, last: offset == names.count - 1)
                }
            }
        }
        if let missing = arguments.dropFirst(values.positionals.count).first(where: { !$0.isOptional }) {
            throw UsageError(path: path, reason: .missingArgument(missing.name, commandWasEmpty: tokens.isEmpty))
        }
        if !arguments.contains(where: \.isRepeating), values.positionals.count > arguments.count {
            throw UsageError(path: path, reason: .unexpectedArguments(Array(values.positionals[arguments.count...])))
        }
        return .command(ParsedCommand(path: path, values: values))
    }

    private func unknownOption(_ typed: String, at path: [String]) -> UsageError {
        let longNames = options.map(\.name) + (hasVersionFlag ? ["--version"] : []) + ["--help"]
        let guess = typed.hasPrefix("--") ? Suggestion.closest(to: typed, among: longNames) : nil
        return UsageError(path: path, reason: .unknownOption(typed, suggestion: guess))
    }
}
