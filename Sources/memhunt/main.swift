import CAllocator
import Foundation
import MemhuntCLI

memhunt_return_large_blocks()
exit(
    await Memhunt.main(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
