import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether an output path would replace a file the run reads: the same resolved real path (through symbolic
/// links, `..` and other spellings), or, when both exist, the same device and inode (a hard link).
enum SameFile {
    /// The first of `inputs` that writing `output` would replace, as given; nil when none. An output that is a
    /// device, a FIFO or a socket is written through, never replaced, and is no input's file.
    static func input(replacedBy output: String, inputs: [String]) -> String? {
        var info = stat()
        let exists = stat(output, &info) == 0
        if exists && info.st_mode & S_IFMT != S_IFREG { return nil }
        let target = resolved(output)
        for input in inputs {
            var other = stat()
            guard stat(input, &other) == 0, other.st_mode & S_IFMT == S_IFREG else { continue }
            if exists && other.st_dev == info.st_dev && other.st_ino == info.st_ino { return input }
            if let target, target == resolved(input) { return input }
        }
        return nil
    }

    /// Whether writing `output` would replace the regular file that standard input was redirected from
    /// (`memhunt run - -o x.log < x.log`): the same device and inode as fd 0.
    static func isStandardInput(_ output: String) -> Bool {
        var input = stat()
        var info = stat()
        guard fstat(0, &input) == 0, input.st_mode & S_IFMT == S_IFREG, stat(output, &info) == 0 else { return false }
        return info.st_dev == input.st_dev && info.st_ino == input.st_ino
    }

    /// The real path of `path`; for a path that does not exist yet, its folder's real path and its name.
    static func resolved(_ path: String) -> String? {
        if let real = realPath(path) { return real }
        let (directory, name) = AtomicFile.split(path)
        return realPath(directory).map { ($0 == "/" ? "" : $0) + "/" + name }
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
