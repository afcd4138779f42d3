import MemhuntReports

/// The declarative spec of the root command, built from the command list.
public enum MemhuntCommands {
    /// `memhunt`.
    public static let root = CommandSpec(
        "memhunt",
        abstract: "Run memory investigations over iOS device and simulator artifacts.",
        subcommands: commandList.map { $0.spec },
        hasVersionFlag: true,
        sections: [
            HelpSection(
                title: "EXIT STATUS",
                lines: [
                    "0   the run completed and no finding reached --fail-on",
                    "1   a finding reached --fail-on",
                    "2   the hunt could not be done as asked (the reason is on stderr)",
                    "64  usage error",
                ])
        ]
    )
}

/// Options shared by several commands, declared once and read through `ParsedValues`' typed getters.
enum Options {
    /// `--format`, with the values a command supports (every report format for `run` and `report`).
    static func format(_ supported: [String] = reporters.identifiers) -> OptionSpec {
        OptionSpec(
            "format", valueName: "format",
            help: "The output format.",
            allowedValues: supported, defaultValue: "text")
    }

    /// The formats of commands that print listings rather than a findings document.
    static let listingFormats = ["json", "text"]

    /// `-o, --output`.
    static let output = OptionSpec(
        "output", short: "o", valueName: "file",
        help: "Write the report to this file (atomically; '-' is stdout) instead of stdout.")

    /// `--color`.
    static let color = OptionSpec(
        "color", valueName: "when", help: "Color the output: auto (a terminal without NO_COLOR), always or never.",
        allowedValues: ColorChoice.allCases.map(\.rawValue), defaultValue: ColorChoice.auto.rawValue)

    /// `-q, --quiet`: the verdict and the summary; the exit line on stderr; no progress, no notes.
    static let quiet = OptionSpec(
        "quiet", short: "q", help: "Print only the verdict and the summary line (and why the exit is not 0).")

    /// `-v, --verbose`: what the default leaves out.
    static let verbose = OptionSpec(
        "verbose", short: "v",
        help: "Also print what the walk leaves out: long lists and maps whole, and each step on stderr as it ends.")

    /// `--fail-on`.
    static let failOn = OptionSpec(
        "fail-on", valueName: "severity", help: "Exit 1 when a finding reaches this severity.",
        allowedValues: ["info", "notice", "warning", "critical"])
}

/// `--color`'s values.
enum ColorChoice: String, CaseIterable {
    case auto, always, never
}
