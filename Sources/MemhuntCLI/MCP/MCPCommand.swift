import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `memhunt mcp`: the hunt as tools for coding agents, a Model Context Protocol server on stdin and stdout.
///
/// Newline-delimited JSON-RPC 2.0 messages: requests on stdin, answers on stdout, one per line; stderr for logs.
/// The tools run memhunt's own commands (`MCPTools`), the hunt session is guided triage's walk (`MCPHunts`).
struct MCPCommand: MemhuntCommand {
    static let allowNetwork = OptionSpec(
        "allow-network",
        help: "Let the tools read http(s) URLs (artifacts, manifest entries, playbooks); without it, local paths only.")
    static let allowExec = OptionSpec(
        "allow-exec",
        help: "Let playbooks run their exec: checks (external programs); without it such a playbook is refused.")
    static let timeout = OptionSpec(
        "timeout", valueName: "seconds", help: "Stop a tool call not done after this long; it answers with an error.",
        defaultValue: "300")
    static let memoryLimit = OptionSpec(
        "memory-limit", valueName: "MB",
        help: "The address space the server, and each tool call's memhunt, may use (RLIMIT_AS).", defaultValue: "4096")

    static let spec = CommandSpec(
        "mcp",
        abstract: "Serve the hunt as Model Context Protocol tools for coding agents, on stdin and stdout.",
        discussion:
            "Tools: run, inspect, scan, diff, checks, playbooks, validate, and a hunt one step at a time (hunt_start, "
            + "hunt_step, hunt_answer, hunt_report). Resources: the built-in playbooks and the latest findings document. "
            + "Relative paths are relative to the folder the server runs in.",
        options: [allowNetwork, allowExec, timeout, memoryLimit]
    )

    var parsed: ParsedCommand
    var console: Console
    var configuration: MCPServer.Configuration

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
        func whole(_ option: OptionSpec, _ range: ClosedRange<Int>, _ what: String) throws -> Int {
            let text = parsed.values.string(option) ?? ""
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(
                    path: parsed.path,
                    reason: .invalidValue(
                        text, option: option.name,
                        explanation: "a whole number of \(what) from \(range.lowerBound) to \(range.upperBound)"))
            }
            return value
        }
        configuration = MCPServer.Configuration(
            allowNetwork: parsed.values.flag(Self.allowNetwork), allowExec: parsed.values.flag(Self.allowExec),
            timeout: TimeInterval(try whole(Self.timeout, 1...86_400, "seconds")),
            memoryLimitMB: try whole(Self.memoryLimit, 256...(1 << 20), "megabytes"))
    }

    func execute() async throws -> Memhunt.ExitStatus {
        if let problem = Self.limitAddressSpace(megabytes: configuration.memoryLimitMB) {
            console.note("memhunt mcp: the memory limit could not be set: \(problem)")
        }
        // A server's child for one call of a hunt session: its answer on stdout, then it ends.
        if let request = console.environment[MCPHunts.requestVariable], !request.isEmpty {
            let answer = await MCPHunts.work(
                requestFile: request, console: console, allowExec: configuration.allowExec)
            let data = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()
            console.stdout.write(String(decoding: data, as: UTF8.self) + "\n")
            return .success
        }
        let server = MCPServer(configuration: configuration, console: console)
        console.note(
            "memhunt mcp \(Memhunt.version): serving on stdin and stdout ("
                + (configuration.allowNetwork ? "URLs allowed" : "local paths only") + ", exec: checks "
                + (configuration.allowExec ? "allowed" : "refused") + ", \(Int(configuration.timeout)) s per call)")
        await server.serve()
        return .success
    }

    /// RLIMIT_AS for this process, inherited by each tool call's memhunt: an allocation past it fails (the call
    /// answers with an error) instead of the machine swapping.
    static func limitAddressSpace(megabytes: Int) -> String? {
        var limit = rlimit()
        limit.rlim_cur = rlim_t(megabytes) << 20
        limit.rlim_max = rlim_t(megabytes) << 20
        var current = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_AS.rawValue)
        #else
            let resource = RLIMIT_AS
        #endif
        if getrlimit(resource, &current) == 0, current.rlim_max != rlim_t.max, current.rlim_max < limit.rlim_max {
            limit.rlim_cur = current.rlim_max
            limit.rlim_max = current.rlim_max
        }
        return setrlimit(resource, &limit) == 0 ? nil : String(cString: strerror(errno))
    }
}
