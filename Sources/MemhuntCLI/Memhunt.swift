import Foundation
import MemhuntCore

/// The command-line tool as a function: argv in, exit status out. Fully testable in-process.
public enum Memhunt {
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        0
    }
}
