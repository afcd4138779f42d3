import Foundation

/// Sysdiagnose-shaped archives written by Python's tarfile and gzip, read through the store.
public enum SysdiagnoseFixture {
    public static let top = "sysdiagnose_2026.08.11_11-20-56+0900_iPhone-OS_iPhone_23A341"

    /// Runs `script` with python3; `sys.argv[1]` is `dir`, `sys.argv[2]` the repository root.
    public static func python(_ script: String, in dir: String) async throws {
        let python = try require_(Tool.which("python3"), "python3 is needed: run scripts/setup")
        let run = try await Tool.run(python, ["-c", script, dir, Repo.root])
        guard run.status == 0 else { throw MissingValue(description: "python3 failed: \(run.stderr)") }
    }

    /// `sysdiagnose.tar.gz` in `dir`: the JustSend JetsamEvent under `crashes_and_spins/`, a `ps.txt`, a skipped
    /// plist and a `.logarchive` of two files.
    public static let justSend = """
        import io, sys, tarfile
        top = "\(top)"
        with tarfile.open(sys.argv[1] + "/sysdiagnose.tar.gz", "w:gz") as t:
            t.add(sys.argv[2] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips",
                  arcname=top + "/crashes_and_spins/JetsamEvent-2026-08-11-112056.ips")
            for name, data in [("ps.txt", b"USER PID RSS\\nmobile 1 100\\n"), ("summaries/a.plist", b"\\0\\1\\2"),
                               ("system_logs.logarchive/Info.plist", b"<plist/>"),
                               ("system_logs.logarchive/Persist/0000000000000001.tracev3", b"\\0" * 1000)]:
                info = tarfile.TarInfo(top + "/" + name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
        """
}
