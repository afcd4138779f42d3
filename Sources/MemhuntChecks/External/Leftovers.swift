import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes a check leaves behind outside its process group: a daemon (fork, `setsid`, fork) has a
/// session and group of its own, so the kill of the check's group missed it, and it outlived memhunt.
///
/// Found three ways. While the check runs, its descendants are looked up every tick (parent links, from
/// `/proc` on Linux and `sysctl` on macOS) and remembered. On Linux each check's environment also carries
/// `MEMHUNT_CHECK_RUN`, a token of that one check that its descendants inherit: any process whose environment
/// holds it is the check's, whoever its parent now is. And on Linux memhunt is a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`): a descendant whose parent exits is reparented to memhunt rather than to init,
/// so one never seen and without the token (a double fork between two ticks, then a cleared environment) is
/// still among memhunt's children; it is the ending check's when no other check is running.
enum Leftovers {
    /// The variable that marks a check's processes.
    static let variable = "MEMHUNT_CHECK_RUN"

    struct Entry: Hashable {
        var pid: pid_t
        var name: String
    }

    /// The checks running now (their direct child) and the descendants seen of each.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: [pid_t: Set<pid_t>] = [:]
    nonisolated(unsafe) private static var tokens: [pid_t: String] = [:]
    nonisolated(unsafe) private static var counter = 0

    /// A new check's token: memhunt's pid and a count.
    static func token() -> String {
        lock.withLock {
            counter += 1
            return "\(getpid()).\(counter)"
        }
    }

    /// Becomes a child subreaper, once (Linux 3.4 and later; elsewhere nothing happens).
    static let becomeSubreaper: Void = prctl(36, 1)  // PR_SET_CHILD_SUBREAPER

    /// `prctl(option, value)` on Linux; elsewhere nothing happens. `prctl` is variadic, which Swift does not
    /// import; its arguments are plain integers.
    private static func prctl(_ option: Int32, _ value: UInt) {
        #if os(Linux)
            typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") {
                _ = unsafeBitCast(symbol, to: Prctl.self)(option, value, 0, 0, 0)
            }
        #endif
    }

    /// Makes memhunt non-dumpable, once, before its first check starts (Linux; elsewhere nothing happens): its
    /// `/proc/PID/environ`, `mem` and `fd` then belong to root, so a check running as the same user cannot read
    /// the trackers' tokens and `MEMHUNT_HTTP_TOKEN` from memhunt's environment, though its own has none of them.
    /// A check's own process is dumpable again after its `execve`, so memhunt still reads its descendants.
    static let becomeNonDumpable: Void = prctl(4, 0)  // PR_SET_DUMPABLE

    static func started(_ pid: pid_t, token: String) {
        lock.withLock {
            running[pid] = []
            tokens[pid] = token
        }
    }

    /// Remembers the descendants of `pid` there are now.
    static func track(_ pid: pid_t) {
        let found = descendants(of: [pid], in: processTable())
        lock.withLock { running[pid, default: []].formUnion(found) }
    }

    /// Kills what the check of `pid` (exited and reaped, its group killed) left running, and says which of
    /// them had left its process group: the processes seen as its descendants, theirs, and the orphans memhunt
    /// adopted that no other running check owns. Those still in its group were killed with the group and are
    /// only reaped.
    static func kill(after pid: pid_t) -> [Entry] {
        let (tracked, token, alone) = lock.withLock {
            (running.removeValue(forKey: pid) ?? [], tokens.removeValue(forKey: pid), running.isEmpty)
        }
        let table = processTable()
        let own = getpid()
        let session = getsid(0)
        let others = lock.withLock { running.reduce(into: Set(running.keys)) { $0.formUnion($1.value) } }
        let marker = token.map { Array("\(variable)=\($0)".utf8) + [0] }
        let marked = table.filter { candidate, process in
            guard let marker, !process.zombie, candidate != own, !others.contains(candidate) else { return false }
            return environmentHolds(candidate, marker)
        }.map(\.key)
        // Adopted: memhunt's children in the check's group, or in a session other than memhunt's (a daemon's);
        // a child memhunt started itself in its own session and group (a test's server) is not one.
        let adopted = table.filter { candidate, process in
            process.parent == own && !others.contains(candidate)
                && (process.group == pid || (alone && process.session != session && process.session >= 0))
        }.map(\.key)
        var victims = Set(tracked.filter { table[$0] != nil }).union(adopted).union(marked)
        victims.formUnion(descendants(of: victims.union([pid]), in: table))
        victims.subtract(others)
        victims.remove(pid)
        var killed: [Entry] = []
        for victim in victims.sorted() {
            guard let process = table[victim] else { continue }
            if !process.zombie, process.group != pid, send(victim, SIGKILL) == 0 {
                killed.append(Entry(pid: victim, name: process.name))
            } else if !process.zombie {
                _ = send(victim, SIGKILL)
            }
            // memhunt's own (adopted) children are reaped, so none is left a zombie.
            if process.parent == own {
                var status: Int32 = 0
                while waitpid(victim, &status, 0) < 0 && errno == EINTR {}
            }
        }
        return killed
    }

    /// `kill(2)`: the name `kill` is this type's.
    private static func send(_ pid: pid_t, _ signal: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.kill(pid, signal)
        #else
            Darwin.kill(pid, signal)
        #endif
    }

    /// `killed` in words: `sleep (pid 4711), sh (pid 4712)`.
    static func describe(_ killed: [Entry]) -> String {
        killed.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
    }

    struct Process {
        var parent: pid_t
        var group: pid_t
        /// -1 where it is not known (macOS, where nothing is adopted).
        var session: pid_t
        var name: String
        var zombie: Bool
    }

    static func descendants(of roots: Set<pid_t>, in table: [pid_t: Process]) -> Set<pid_t> {
        var children: [pid_t: [pid_t]] = [:]
        for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
        var found: Set<pid_t> = []
        var queue = Array(roots)
        while let next = queue.popLast() {
            for child in children[next] ?? [] where found.insert(child).inserted { queue.append(child) }
        }
        return found
    }

    /// Every process.
    static func processTable() -> [pid_t: Process] {
        var table: [pid_t: Process] = [:]
        #if os(Linux)
            guard let directory = opendir("/proc") else { return table }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard let pid = pid_t(name), let stat = readSmall("/proc/\(name)/stat") else { continue }
                // `pid (comm) state ppid …`: the name may hold spaces and parentheses; it ends at the last `)`.
                guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 3, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
                    let session = pid_t(fields[3])
                else { continue }
                table[pid] = Process(
                    parent: parent, group: group, session: session,
                    name: String(stat[stat.index(after: open)..<close]), zombie: fields[0] == "Z")
            }
        #elseif canImport(Darwin)
            var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_ALL, 0]
            var size = 0
            guard sysctl(&mib, UInt32(mib.count), nil, &size, nil, 0) == 0 else { return table }
            let stride = MemoryLayout<kinfo_proc>.stride
            var processes = [kinfo_proc](repeating: kinfo_proc(), count: size / stride + 32)
            size = processes.count * stride
            guard sysctl(&mib, UInt32(mib.count), &processes, &size, nil, 0) == 0 else { return table }
            for process in processes.prefix(size / stride) {
                let name = withUnsafeBytes(of: process.kp_proc.p_comm) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                table[process.kp_proc.p_pid] = Process(
                    parent: process.kp_eproc.e_ppid, group: process.kp_eproc.e_pgid, session: -1, name: name,
                    zombie: Int32(process.kp_proc.p_stat) == SZOMB)
            }
        #endif
        return table
    }

    /// Whether the environment of `pid` holds `marker` (`NAME=value` and its NUL), as far as it can be read.
    static func environmentHolds(_ pid: pid_t, _ marker: [UInt8]) -> Bool {
        #if os(Linux)
            let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var bytes: [UInt8] = [0]
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while bytes.count < 1 << 20 {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += chunk.prefix(count)
            }
            // Entries are NUL-separated: the marker follows a NUL (the one put in front of the first entry).
            let needle = [0] + marker
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == 0 {
                if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
            }
            return false
        #else
            return false
        #endif
    }

    #if os(Linux)
        /// A small file of `/proc`, read in one call.
        private static func readSmall(_ path: String) -> String? {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 1024)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
        }
    #endif
}
