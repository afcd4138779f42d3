import Foundation
import MemhuntCLI

exit(
    await Memhunt.main(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
