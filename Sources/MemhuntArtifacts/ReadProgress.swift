import Foundation

/// How far the local file being read has got: the bytes its reader has been handed so far (the head, then
/// each window fed to the parser; a hash read beside it or a part read again is not counted twice). The CLI
/// shows it as a percentage of the file's size while a large file is read. One counter for the process:
/// `ArtifactStore` reads one local file at a time.
public enum ReadProgress {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var bytes = 0

    /// Starts counting a new file from 0.
    public static func reset() { lock.withLock { bytes = 0 } }

    /// The bytes handed to the reader since `reset`.
    public static var current: Int { lock.withLock { bytes } }

    static func add(_ count: Int) { lock.withLock { bytes += count } }
}
