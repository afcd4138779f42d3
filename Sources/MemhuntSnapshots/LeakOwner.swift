import MemhuntFormats

/// Whose code a class is: the app's, a system framework's, or neither (a closure context or a block belongs to
/// whoever made it; an untyped block names nothing). `leaks` prints no image for an object, so a class is
/// system by its module (`Swift.`, `SwiftUI.`, `Foundation.`…), by the prefixes of Apple's frameworks followed by
/// a capital (`NSMutableArray`, `CFRunLoopSource`, `NEFilterSocketFlow`), or as C++ of the standard library; a
/// block by the image its line names, when that is not the process's own.
public enum LeakOwner: String, Sendable, Hashable {
    case app, system, neutral

    static let systemModules = [
        "Swift.", "SwiftUI.", "Foundation.", "Combine.", "_Concurrency.", "Observation.", "UIKit.", "AppKit.",
        "CoreData.", "SwiftData.", "WebKit.", "Network.", "std::", "__gnu_cxx::",
    ]
    static let systemPrefixes = [
        "__NS", "_NS", "NS", "__CF", "_CF", "CF", "_UI", "UI", "CA", "CG", "CI", "AV", "WK", "NE", "MK", "CL", "PH",
        "SK", "FIT", "OS_", "IOHID",
    ]
    static let neutralClasses = ["Closure context", "Swift closure context", "__NSMallocBlock__", "__NSStackBlock__"]

    public static func of(_ node: LeakShape.Node, process: String?) -> LeakOwner {
        guard let name = node.className else { return .neutral }
        if neutralClasses.contains(name) {
            // A block's code is in the image its line names.
            guard let image = node.image else { return .neutral }
            return image == process ? .app : .system
        }
        return of(name)
    }

    public static func of(_ name: String) -> LeakOwner {
        if neutralClasses.contains(name) { return .neutral }
        if systemModules.contains(where: { name.hasPrefix($0) }) { return .system }
        for prefix in systemPrefixes where name.hasPrefix(prefix) {
            let next = name.dropFirst(prefix.count).first
            if next.map({ $0.isUppercase || $0 == "_" }) ?? false { return .system }
        }
        return .app
    }
}
