/// Renders help screens and usage lines from a `CommandSpec`, laid out like swift-argument-parser.
public struct HelpRenderer: Sendable {
    /// The indent of every section row.
    public static let indent = 2
    /// The column where help text starts; longer labels put their help on the next line.
    public static let labelColumnWidth = 26

    /// The screen width text wraps to.
    public var width: Int

    /// Creates a renderer wrapping at `width` columns.
    public init(width: Int = 80) {
        self.width = width
    }

    /// The full stdout text of `--help` for the command at `path` (starting with the root's name).
    public func help(for path: [String], in root: CommandSpec) -> String {
        guard let command = root.command(at: path) else { preconditionFailure("no command at \(path)") }
        let overview = [command.abstract, command.discussion].filter { !$0.isEmpty }.joined(separator: "\n\n")
        var text = overview.isEmpty ? "" : wrap("OVERVIEW: " + overview, indent: 0) + "\n\n"
        text += usageLines(usage(of: command, path: path), path: path) + "\n\n"
        let arguments = command.arguments.map { (label: "<\($0.name)>", help: $0.help) }
        let options =
            command.options.map { (label: optionLabel($0), help: optionHelp($0)) }
            + (command.hasVersionFlag ? [("--version", "Show the version.")] : []) + [
                ("-h, --help", "Show help information.")
            ]
        let subcommands = command.subcommands.map { (label: $0.name, help: $0.abstract) }
        let sections =
            [("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands)]
            .filter { !$0.1.isEmpty }
            .map { title, rows in "\(title):\n" + rows.map(row).joined() }
            + command.sections.map { "\($0.title):\n" + $0.lines.map { pad + $0 + "\n" }.joined() }
        text += sections.joined(separator: "\n")
        if !command.subcommands.isEmpty {
            let names = [path[0], "help"] + path.dropFirst()
            text += "\n\(pad)See '\(names.joined(separator: " ")) <subcommand>' for detailed help."
        }
        return text + "\n"
    }

    /// The synopsis after `USAGE:`, such as `memhunt run [--app <name>] <artifact> ...`.
    public func usage(of command: CommandSpec, path: [String]) -> String {
        if let usage = command.usage { return usage }
        let options = command.options.map { option in
            "[\(option.name)\(option.valueName.map { " <\($0)>" } ?? "")\(option.isRepeatable ? " ..." : "")]"
        }
        let arguments = command.arguments.map { argument in
            let synopsis = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
            return argument.isOptional ? "[\(synopsis)]" : synopsis
        }
        var words = [path.joined(separator: " ")]
        if options.count + arguments.count > 12 {
            words += arguments.isEmpty ? ["<options>"] : ["[<options>]"] + arguments
        } else {
            words += options + arguments
        }
        return (words + (command.subcommands.isEmpty ? [] : ["<subcommand>"])).joined(separator: " ")
    }

    /// `USAGE: …` wrapped at `width` between whole options (`[--app <name>]` is never cut), the lines after the
    /// first indented under the first option, as swift-argument-parser lays them out.
    func usageLines(_ usage: String, path: [String]) -> String {
        var units: [String] = []
        var depth = 0
        for word in usage.split(separator: " ") {
            if depth > 0 { units[units.count - 1] += " " + word } else { units.append(String(word)) }
            depth += word.count { $0 == "[" || $0 == "<" } - word.count { $0 == "]" || $0 == ">" }
            depth = max(0, depth)
        }
        let head = "USAGE: " + path.joined(separator: " ")
        let indent = String(repeating: " ", count: head.count + 1 <= width / 2 ? head.count + 1 : 8)
        var lines = [head]
        for unit in units.dropFirst(path.count) {
            if lines[lines.count - 1].count + 1 + unit.count > width {
                lines.append(indent + unit)
            } else {
                lines[lines.count - 1] += " " + unit
            }
        }
        return lines.joined(separator: "\n")
    }

    private var pad: String { String(repeating: " ", count: Self.indent) }

    private func optionLabel(_ option: OptionSpec) -> String {
        let names = (option.short.map { ["-\($0)"] } ?? []) + [option.name]
        return names.joined(separator: ", ") + (option.valueName.map { " <\($0)>" } ?? "")
    }

    private func optionHelp(_ option: OptionSpec) -> String {
        let notes = [
            option.allowedValues.isEmpty ? nil : "values: " + option.allowedValues.joined(separator: ", "),
            option.defaultValue.map { "default: \($0)" },
        ].compactMap { $0 }
        return notes.isEmpty ? option.help : "\(option.help) (\(notes.joined(separator: "; ")))"
    }

    /// One row: the label, then the help from column 26, or on the next line when the label reaches it.
    private func row(_ label: String, _ help: String) -> String {
        let label = pad + label
        if help.isEmpty { return label + "\n" }
        let wrapped = wrap(help, indent: Self.labelColumnWidth)
        if label.count < Self.labelColumnWidth { return label + wrapped.dropFirst(label.count) + "\n" }
        return label + "\n" + wrapped + "\n"
    }

    /// Wraps `text` at spaces so each line fits `width`, indenting every line by `indent`.
    private func wrap(_ text: String, indent: Int) -> String {
        let limit = max(1, width - indent)
        var lines: [Substring] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = paragraph
            while rest.count > limit, let cut = rest.prefix(limit).lastIndex(of: " ") ?? rest.firstIndex(of: " ") {
                lines.append(rest[..<cut])
                rest = rest[rest.index(after: cut)...]
            }
            lines.append(rest)
        }
        return lines.map { $0.isEmpty ? "" : String(repeating: " ", count: indent) + $0 }.joined(separator: "\n")
    }
}
