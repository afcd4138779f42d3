/// The declarative specs of memhunt's commands: what they accept and what their help says.
public enum MemhuntCommands {
    /// `memhunt`.
    public static let root = CommandSpec(
        "memhunt",
        abstract: "Run memory investigations over iOS device and simulator artifacts.",
        subcommands: [run, inspect, checks, playbooks, validate],
        hasVersionFlag: true,
        sections: [
            HelpSection(
                title: "EXIT STATUS",
                lines: [
                    "0   the run completed and no finding reached --fail-on",
                    "1   a finding reached --fail-on",
                    "2   memhunt could not run (invalid playbook, unwritable output)",
                    "64  usage error",
                ])
        ]
    )

    /// `memhunt run`.
    public static let run = CommandSpec(
        "run",
        abstract: "Walk a playbook over artifacts and report facts and findings.",
        arguments: [
            ArgumentSpec(
                "artifact", help: "A file, a directory, or an http(s) URL of an artifact or a manifest.",
                isRepeating: true)
        ],
        options: [
            OptionSpec(
                "playbook", valueName: "id-or-path-or-url",
                help: "A built-in playbook id, a playbook file, or an http(s) URL.", defaultValue: "memory-hunt"),
            OptionSpec("app", valueName: "name", help: "The app under investigation: a process name or a bundle id."),
            format,
            OptionSpec(
                "output", short: "o", valueName: "file",
                help: "Write the report to this file (atomically; '-' is stdout) instead of stdout."),
            OptionSpec(
                "fail-on", valueName: "severity", help: "Exit 1 when a finding reaches this severity.",
                allowedValues: ["info", "notice", "warning", "critical"]),
            OptionSpec(
                "header", valueName: "header", help: "An HTTP header for every download, as 'Name: value'.",
                isRepeatable: true),
            OptionSpec(
                "max-artifact-size", valueName: "MB", help: "Refuse downloads larger than this many megabytes.",
                defaultValue: "256"),
            OptionSpec(
                "max-manifest-entries", valueName: "count", help: "Refuse manifests that list more artifacts.",
                defaultValue: "1000"),
            OptionSpec(
                "download-timeout", valueName: "seconds",
                help: "Give up on a download not complete after this long, retries included.", defaultValue: "300"),
            OptionSpec("allow-exec", help: "Allow the playbook to run external programs."),
        ]
    )

    /// `memhunt inspect`.
    public static let inspect = CommandSpec(
        "inspect",
        abstract: "Show the kind and facts of single artifacts.",
        arguments: [
            ArgumentSpec("artifact", help: "A file, a directory, or an http(s) URL of an artifact.", isRepeating: true)
        ],
        options: [format]
    )

    /// `memhunt checks`.
    public static let checks = CommandSpec("checks", abstract: "List the built-in checks.", options: [format])

    /// `memhunt playbooks`.
    public static let playbooks = CommandSpec("playbooks", abstract: "List the built-in playbooks.")

    /// `memhunt validate`.
    public static let validate = CommandSpec(
        "validate",
        abstract: "Check playbooks and report every problem as file:line:col.",
        arguments: [ArgumentSpec("playbook", help: "A playbook file to check.", isRepeating: true)]
    )

    /// `--format text|json`, shared by the commands that print a report.
    static let format = OptionSpec(
        "format", valueName: "format", help: "The output format.", allowedValues: ["text", "json"],
        defaultValue: "text")
}
