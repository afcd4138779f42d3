import Foundation
import MemhuntTestSupport
import Testing

/// The README's and the docs' commands stay true to the binary: every `memhunt SUBCOMMAND …` they show (code
/// blocks and inline code) names a subcommand that exists and options that subcommand takes, and every example over
/// the bundled fixtures runs (exit 0, or 1 where it gates) without an error.
@Suite struct ReadmeCommandsTests {
    /// The README and docs/*.md.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/docs").filter {
            $0.hasSuffix(".md")
        }
        return ["README.md"] + docs.sorted().map { "docs/" + $0 }
    }

    /// Each `memhunt …` command of the README and the docs, continuation lines of a code block joined to theirs.
    static func commands() throws -> [String] { try documents().flatMap { try commands(in: $0) } }

    static func commands(in document: String) throws -> [String] {
        let text = try String(contentsOfFile: Repo.root + "/" + document, encoding: .utf8)
        var commands: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let command = trimmed.hasPrefix("- run: ") ? String(trimmed.dropFirst(7)) : trimmed
                if command.hasPrefix("memhunt ") {
                    commands.append(command)
                } else if line.hasPrefix("  "), trimmed.hasPrefix("["), let last = commands.indices.last,
                    commands[last].hasPrefix("memhunt ")
                {
                    commands[last] += " " + trimmed
                }
            } else {
                // Inline code: `memhunt …`.
                for part in line.components(separatedBy: "`").enumerated() where part.offset % 2 == 1 {
                    if part.element.hasPrefix("memhunt ") { commands.append(part.element) }
                }
            }
        }
        return commands
    }

    /// The subcommand's words (`ledger add`, `playbooks show`) and the options its help lists.
    static func options(of words: [String]) async -> Set<String> {
        let help = await memhunt(words + ["--help"])
        var options: Set<String> = ["--help"]
        for match in help.stdout.matches(of: /--[a-z][a-z0-9-]*/) { options.insert(String(match.output)) }
        return options
    }

    @Test func everyCommandNamesASubcommandAndOptionsItTakes() async throws {
        let commands = try Self.commands()
        #expect(commands.count > 80, "\(commands.count) commands read from the README and docs")
        let root = await memhunt("--help").stdout
        let subcommands = Set(
            root.components(separatedBy: "SUBCOMMANDS:").last!.split(separator: "\n").compactMap {
                $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil
            })
        #expect(subcommands.isSuperset(of: ["run", "attach", "scan", "diff", "report", "triage", "init", "suppress"]))
        var cache: [String: Set<String>] = [:]
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            guard words.count > 1, !words[1].hasPrefix("-"), words[1] != "help" else { continue }
            let sub = words[1].trimmingCharacters(in: CharacterSet(charactersIn: "`|.,;:)"))
            #expect(subcommands.contains(sub), "\(command): no subcommand \(sub)")
            guard subcommands.contains(sub) else { continue }
            // A second word that is a subcommand of its own (`ledger add`, `playbooks show`).
            var path = [sub]
            if words.count > 2, ["ledger"].contains(sub), words[2].allSatisfy({ $0.isLetter }) { path.append(words[2]) }
            let key = path.joined(separator: " ")
            if cache[key] == nil { cache[key] = await Self.options(of: path) }
            let known = cache[key]!
            // Each word that starts with `--` (in brackets, before `=` or a value).
            for word in command.split(whereSeparator: { " [(|".contains($0) }) where word.hasPrefix("--") {
                guard let match = word.prefixMatch(of: /--[a-z][a-z0-9-]*/) else { continue }
                let option = String(match.output)
                #expect(known.contains(option), "\(command): \(key) takes no \(option)")
            }
        }
    }

    /// The examples over the bundled fixtures, run as written.
    @Test func theExamplesOverTheFixturesRun() async throws {
        let runnable = try Self.commands().filter { command in
            command.contains("Fixtures/") && !command.contains("<") && !command.contains("…")
                && !command.contains("|") && !command.contains("$") && !command.contains("attach")
                && !command.contains("http") && !command.contains(">")
        }
        #expect(runnable.count >= 3, "\(runnable)")
        for command in runnable {
            let words = command.split(separator: " ").dropFirst().map(String.init)
            let run = await memhunt(words)
            #expect(run.status == 0 || run.status == 1, "\(command): exit \(run.status): \(run.stderr)")
            #expect(!run.stderr.contains("Error:"), "\(command): \(run.stderr)")
        }
    }
}
