import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one program in a process group of its own, feeds it stdin, collects stdout and stderr up to caps,
/// and enforces the timeout on the whole group.
///
/// Before, a check ran as a plain child: `sh -c "sleep 20"` with `timeout: 1` took 20 s (the kill reached the
/// shell, not the sleep), and a check that answered and left `sleep 30` behind holding its stdout held the
/// run 30 s and was reported as timed out. Now the group is killed on timeout, and once the direct child
/// has exited the pipes are drained of what is already there (never waited on for EOF) and the group's
/// leftovers are killed. So are the processes that left the group (`Leftovers`): a daemon outlived the run.
public enum ProcessRunner {
    /// How the child ended: its exit status, the signal that ended it, killed at the timeout, killed for writing
    /// more than `stdoutLimit`, killed because the task that launched it was cancelled, or not started (the
    /// system's words).
    public enum Ending: Equatable, Sendable {
        case exited(Int32), signaled(Int32), timedOut, flooded, cancelled, launchFailed(String)
    }

    /// Set once, from the task's cancellation handler; read by the thread that waits on the child.
    final class Cancellation: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        func cancel() { lock.withLock { cancelled = true } }
        var isCancelled: Bool { lock.withLock { cancelled } }
    }

    public struct Outcome: Sendable {
        public var ending: Ending
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// What it left running outside its process group, killed (`Leftovers`).
        var leftovers: [Leftovers.Entry] = []
    }

    /// `run` on a thread of its own, with SIGPIPE ignored (a child that exits without reading its input closes
    /// the pipe under our write; without this the write raises SIGPIPE and ends memhunt: exit 141, measured with
    /// a 200 KB request to /bin/true). Cancelling the calling task kills the child's group, as the timeout does,
    /// within the 50 ms the wait polls at (`memhunt mcp` cancels a tool call so).
    public static func launch(
        executable: String, arguments: [String], environment: [String: String], directory: String?,
        input: [UInt8], timeout: Double, stdoutLimit: Int, stderrLimit: Int
    ) async -> Outcome {
        _ = ignoreBrokenPipes
        // Dedicated threads, not GCD's pool: the work blocks on pipes and on the child, and with two cores the pool
        // starved (concurrent checks each took far longer than one alone).
        let cancellation = Cancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(
                        returning: run(
                            executable: executable, arguments: arguments, environment: environment,
                            directory: directory, input: input, timeout: timeout, stdoutLimit: stdoutLimit,
                            stderrLimit: stderrLimit, cancellation: cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Blocks the calling thread (run it on a thread of its own) until the child exits or is killed.
    static func run(
        executable: String, arguments: [String], environment: [String: String], directory: String?,
        input: [UInt8], timeout: Double, stdoutLimit: Int, stderrLimit: Int, cancellation: Cancellation = Cancellation()
    ) -> Outcome {
        _ = Leftovers.becomeSubreaper
        _ = Leftovers.becomeNonDumpable
        guard let (stdinPipe, stdoutPipe, stderrPipe) = pipes() else {
            return Outcome(ending: .launchFailed(String(cString: strerror(errno))), stdout: [], stderr: [])
        }
        // The token by which the processes it leaves behind are found, whoever their parent is then.
        let token = Leftovers.token()
        var environment = environment
        environment[Leftovers.variable] = token
        let spawned = spawn(
            executable: executable, arguments: arguments, environment: environment, directory: directory,
            stdin: stdinPipe[0], stdout: stdoutPipe[1], stderr: stderrPipe[1])
        close(stdinPipe[0])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        let pid: pid_t
        switch spawned {
        case .failure(let error):
            close(stdinPipe[1])
            close(stdoutPipe[0])
            close(stderrPipe[0])
            return Outcome(ending: .launchFailed(String(cString: strerror(error.code))), stdout: [], stderr: [])
        case .success(let child): pid = child
        }
        Leftovers.started(pid, token: token)
        feed(input, to: stdinPipe[1])
        var out: [UInt8] = [], err: [UInt8] = []
        var open: [(fd: Int32, isStdout: Bool)] = [(stdoutPipe[0], true), (stderrPipe[0], false)]
        var flooded = false, timedOut = false, cancelled = false
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        enum Read { case data, end, wouldBlock }
        func read(_ fd: Int32, isStdout: Bool) -> Read {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return errno == EINTR || errno == EAGAIN ? .wouldBlock : .end }
            if count == 0 { return .end }
            if isStdout {
                let room = max(0, stdoutLimit - out.count)
                out += buffer.prefix(min(count, room))
                if count > room { flooded = true }
            } else {
                err += buffer.prefix(min(count, max(0, stderrLimit - err.count)))
            }
            return .data
        }
        var exited = false
        // The process table is read at most twice a second: every 50 ms tick read all of /proc, which slowed
        // checks on a loaded machine (an exec check of the suite ran past its 10 s timeout beside the browser
        // tests). A descendant missed between two looks still carries the check's token, or is adopted.
        var lastLook = DispatchTime.now().uptimeNanoseconds
        while !exited {
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                if read(entry.fd, isStdout: open[index].isStdout) == .end { open[index].fd = -1 }
            }
            open.removeAll { $0.fd < 0 }
            let now = DispatchTime.now().uptimeNanoseconds
            if now - lastLook >= 500_000_000 {
                lastLook = now
                Leftovers.track(pid)
            }
            if !flooded, cancellation.isCancelled { cancelled = true }
            if flooded || cancelled || Date() >= deadline {
                timedOut = !flooded && !cancelled
                // One more look first: a descendant started since the last one (up to 500 ms ago) in a group of its
                // own, under a token of its own (a check of a memhunt that `memhunt mcp` runs), is known by its
                // parent link only, which the kill breaks. Without it such a `sleep` outlived a cancelled call.
                Leftovers.track(pid)
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                exited = true
            } else if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
            }
        }
        // The direct child is gone: what it wrote is in the pipes now. Leftovers of its group are killed, and
        // the pipes are drained without waiting for an EOF that a leftover could hold back.
        kill(-pid, SIGKILL)
        // And what left the group (a daemon: `setsid`), found by its parent links.
        let leftovers = Leftovers.kill(after: pid)
        for entry in open {
            _ = fcntl(entry.fd, F_SETFL, fcntl(entry.fd, F_GETFL) | O_NONBLOCK)
            while !flooded, read(entry.fd, isStdout: entry.isStdout) == .data {}
        }
        close(stdoutPipe[0])
        close(stderrPipe[0])
        let ending: Ending =
            flooded ? .flooded : cancelled ? .cancelled : timedOut ? .timedOut : Self.ending(waitStatus: status)
        return Outcome(ending: ending, stdout: out, stderr: err, leftovers: leftovers)
    }

    /// The child's three pipes, close-on-exec, so a check started at the same time by another thread does not
    /// inherit these ends (a stray copy of a write end would hold back EOF); nil, with every end closed and errno
    /// kept, when one cannot be made.
    private static func pipes() -> (stdin: [Int32], stdout: [Int32], stderr: [Int32])? {
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        func cloexecPipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard cloexecPipe(&stdinPipe), cloexecPipe(&stdoutPipe), cloexecPipe(&stderrPipe) else {
            let saved = errno
            for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
            errno = saved
            return nil
        }
        return (stdinPipe, stdoutPipe, stderrPipe)
    }

    /// A check that never reads stdin must not block the runner: `input` is written from another thread, then
    /// the pipe is closed (EPIPE is ignored; the thread ends when the group is killed at the latest).
    private static func feed(_ input: [UInt8], to writeEnd: Int32) {
        Thread.detachNewThread {
            var rest = input[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break }
                rest = rest.dropFirst(written)
            }
            close(writeEnd)
        }
    }

    /// How a child that was not stopped ended, from `waitpid`'s status: its exit status, or the signal.
    private static func ending(waitStatus status: Int32) -> Ending {
        status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }

    /// posix_spawn with a new process group, default signal handling (memhunt ignores SIGPIPE, and SIGINT and
    /// SIGTERM while a cache exists; ignored signals would be inherited) and an empty signal mask.
    private static func spawn(
        executable: String, arguments: [String], environment: [String: String], directory: String?,
        stdin: Int32, stdout: Int32, stderr: Int32
    ) -> Result<pid_t, Errno> {
        #if os(Linux)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        if let directory {
            #if os(Linux)
                // glibc 2.29+ has it, but Swift's Glibc module does not export it.
                guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
                else { return .failure(Errno(ENOSYS)) }
                typealias AddChdir =
                    @convention(c) (
                        UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
                    ) -> Int32
                _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory)
            #else
                posix_spawn_file_actions_addchdir_np(&actions, directory)
            #endif
        }
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(Errno(code))
    }

    struct Errno: Error { var code: Int32; init(_ code: Int32) { self.code = code } }
}
