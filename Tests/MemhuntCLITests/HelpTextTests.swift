import MemhuntCLI
import Testing

struct HelpTextTests {
    let renderer = HelpRenderer(width: 80)

    @Test func root() {
        #expect(
            renderer.help(for: ["memhunt"], in: MemhuntCommands.root) == """
                OVERVIEW: Run memory investigations over iOS device and simulator artifacts.

                USAGE: memhunt <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  run                     Walk a playbook over artifacts and report facts and
                                          findings.
                  attach                  Attach a saved findings document (memhunt run
                                          --format json) to a bug tracker, once.
                  checks                  List the built-in checks: their finding codes, facts
                                          with units, and parameters.
                  completions             Print a shell completion script (bash, zsh or fish)
                                          generated from the commands.
                  diff                    Compare two saved runs (facts, findings, a fix
                                          verdict), or two captures per class.
                  init                    Write a commented .memhunt.yml from what a folder of
                                          artifacts says.
                  inspect                 Show the kind and facts of single artifacts.
                  ledger                  Keep an investigation's hypotheses and experiments,
                                          and judge them over their artifacts.
                  mcp                     Serve the hunt as Model Context Protocol tools for
                                          coding agents, on stdin and stdout.
                  playbooks               List the built-in playbooks, or print one's YAML
                                          (playbooks show ID) to copy and tune.
                  postmortem              Draft a Markdown postmortem from saved runs: the
                                          incident's first, the verifying run last.
                  report                  Render a saved findings document (memhunt run
                                          --format json) in any format.
                  scan                    Fold many JetsamEvents, crash reports and MetricKit
                                          payloads into per-app figures.
                  suppress                Accept a finding by its signature, with a reason, in
                                          the project file.
                  triage                  Walk through the hunt one step at a time, from what
                                          the user reported.
                  validate                Check playbooks (files or built-in ids) and report
                                          every problem as file:line:col.

                EXIT STATUS:
                  0   the run completed and no finding reached --fail-on
                  1   a finding reached --fail-on
                  2   the hunt could not be done as asked (the reason is on stderr)
                  64  usage error

                  See 'memhunt help <subcommand>' for detailed help.

                """)
    }

    @Test func run() {
        #expect(
            renderer.help(for: ["memhunt", "run"], in: MemhuntCommands.root) == """
                OVERVIEW: Walk a playbook over artifacts and report facts and findings.

                USAGE: \(runUsage)

                ARGUMENTS:
                  <artifact>              A file, a directory, an http(s) URL of an artifact or
                                          a manifest, or - for stdin (with --ledger, its
                                          artifacts when none is given).

                OPTIONS:
                  --playbook <id-or-path-or-url>
                                          A built-in playbook id, a playbook file, or an
                                          http(s) URL. (default: memory-hunt)
                  --app <name>            The app under investigation: a process name or a
                                          bundle id.
                  --format <format>       The output format. (values: github, html, json,
                                          junit, markdown, sarif, text; default: text)
                  -o, --output <file>     Write the report to this file (atomically; '-' is
                                          stdout) instead of stdout.
                  --fail-on <severity>    Exit 1 when a finding reaches this severity. (values:
                                          info, notice, warning, critical)
                  --baseline <findings>   A saved run (memhunt run --format json): report and
                                          gate only the findings it does not have.
                  --header <header>       An HTTP header for every download, as 'Name: value';
                                          @FILE reads one a line from FILE.
                  --max-artifact-size <MB>
                                          Refuse downloads larger than this many megabytes.
                                          (default: 256)
                  --max-manifest-entries <count>
                                          Refuse manifests that list more artifacts. (default:
                                          1000)
                  --download-timeout <seconds>
                                          Give up on a download not complete after this long,
                                          retries included. (default: 300)
                  --deadline <seconds>    Give up on the downloads still running after this
                                          long in all; each is reported as not fetched.
                  --allow-exec            Allow the playbook to run external programs.
                  --ledger <file>         An investigation ledger (memhunt.ledger/1): judge its
                                          experiments and fix as well; its artifacts are the
                                          operands when none is given.
                  --attach <target>       Then attach the findings to a bug tracker, once and
                                          redacted (see memhunt attach --help).
                  --new                   With --attach: post a new comment even if this hunt
                                          has one (by default the run edits it).
                  --config <file>         The project file (by default the nearest .memhunt.yml
                                          upward from the working directory).
                  --no-config             Read no project file.
                  --color <when>          Color the output: auto (a terminal without NO_COLOR),
                                          always or never. (values: auto, always, never;
                                          default: auto)
                  -q, --quiet             Print only the verdict and the summary line (and why
                                          the exit is not 0).
                  -v, --verbose           Also print what the walk leaves out: long lists and
                                          maps whole, and each step on stderr as it ends.
                  -h, --help              Show help information.


                """)
    }

    @Test func checks() {
        #expect(
            renderer.help(for: ["memhunt", "checks"], in: MemhuntCommands.root) == """
                OVERVIEW: List the built-in checks: their finding codes, facts with units, and
                parameters.

                USAGE: memhunt checks [--format <format>] [--color <when>]

                OPTIONS:
                  --format <format>       The output format. (values: json, text; default: text)
                  --color <when>          Color the output: auto (a terminal without NO_COLOR),
                                          always or never. (values: auto, always, never;
                                          default: auto)
                  -h, --help              Show help information.


                """)
    }

    @Test func discussionWrapsAndLongUsagesCollapse() {
        let options = (1...13).map { OptionSpec("option-\($0)", help: "") }
        let spec = CommandSpec(
            "tool", abstract: "Do a thing.",
            discussion: "A discussion long enough to wrap onto a second line at forty columns.",
            arguments: [ArgumentSpec("input", help: "The input file, read whole before anything happens.")],
            options: options)
        let help = HelpRenderer(width: 40).help(for: ["tool"], in: spec)
        #expect(
            help.hasPrefix(
                """
                OVERVIEW: Do a thing.

                A discussion long enough to wrap onto a
                second line at forty columns.

                USAGE: tool [<options>] <input>

                ARGUMENTS:
                  <input>                 The input
                                          file, read
                                          whole before
                                          anything
                                          happens.

                OPTIONS:
                  --option-1
                  --option-2

                """))
    }

    @Test func usageOverrideWins() {
        let spec = CommandSpec("tool", abstract: "", usage: "tool <anything>")
        #expect(HelpRenderer().help(for: ["tool"], in: spec).hasPrefix("USAGE: tool <anything>\n"))
    }
}

/// Help fits 80 columns off a terminal: a long synopsis wraps between whole options, never inside one.
@Suite struct HelpWidthTests {
    @Test(arguments: ["run", "triage", "scan", "diff", "attach", "mcp", "inspect", "init", "suppress", "ledger"])
    func everyHelpLineFitsEightyColumns(_ command: String) async {
        let help = await memhunt(command, "--help")
        #expect(help.status == 0)
        for line in help.stdout.split(separator: "\n") {
            #expect(line.count <= 80, "\(command): \(line.count): \(line)")
        }
        let usage = help.stdout.split(separator: "\n").drop { !$0.hasPrefix("USAGE:") }.prefix { !$0.isEmpty }
        for line in usage {
            let open = line.count { $0 == "[" }, close = line.count { $0 == "]" }
            #expect(open == close, "an option cut between lines: \(line)")
        }
    }
}
