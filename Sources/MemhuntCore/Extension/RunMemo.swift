import Foundation

/// Values a run computes once and its checks share: record snapshots, which several checks of several steps read.
/// Before, each check rebuilt the snapshot of every JetsamEvent it read, a noticeable share of a run's work.
///
/// One per hunt session (`HuntSession`), so it lives as long as the run and no longer. A key names what
/// was computed and from which artifacts (their sources and digests), so that artifacts added between
/// steps get their own values.
public final class RunMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: any Sendable] = [:]

    public init() {}

    /// The value under `key`, made by `make` the first time.
    public func value<Value: Sendable>(_ key: String, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) as? Value { return known }
        let made = make()
        lock.withLock { values[key] = made }
        return made
    }
}
