import Dispatch

#if canImport(CommonCrypto)
    import CommonCrypto
#elseif canImport(CLibcrypto)
    import CLibcrypto
#else
    #error("SHA256 needs CommonCrypto (Darwin) or libcrypto (Linux: apt-get install libssl-dev)")
#endif

/// Streaming SHA-256 on the platform's accelerated implementation: CommonCrypto on Darwin, libcrypto
/// (OpenSSL 3, SHA-NI when the CPU has it) on Linux. Artifacts are hashed while they are read or
/// downloaded, in bounded memory.
///
/// Large updates of an owning, `Sendable` collection (a document read whole into an array) are hashed on a background
/// queue while the caller goes on parsing: the chunk is retained, not copied, and one waits while the caller reads the
/// next (a second in flight cost another chunk of memory and gained nothing). Everything else is hashed on the caller's
/// thread after the queue has drained, so the digest is always that of the bytes in order. A copy of a hasher is
/// independent (copy-on-write of the context).
///
/// memhunt's own Swift implementation measured several times slower than libcrypto and was most of a change-log scan;
/// with libcrypto, hashing was still a large share of a scan on the scanner's thread. Change logs are now hashed by the
/// thread that reads them (`LocalArtifacts`), off the scanner's.
public struct SHA256: Sendable {
    private var box = Box()

    public init() {}

    /// Feeds bytes. Large updates are hashed in the background (see above).
    public mutating func update<Bytes: Collection & Sendable>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count >= Self.backgroundThreshold else { return update(unsent: bytes) }
        unique()
        box.enqueue(bytes)
    }

    /// Feeds bytes.
    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        update(unsent: bytes)
    }

    /// Feeds raw bytes (on the caller's thread: the buffer is only valid during the call).
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        unique()
        box.drain()
        box.updateNow(bytes)
    }

    /// The digest as 64 lowercase hex characters. Call once.
    public mutating func finalizeHex() -> String {
        unique()
        box.drain()
        return box.finalizeNow()
    }

    /// The hex digest of a byte collection.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(unsent: bytes)
        return hasher.finalizeHex()
    }

    /// Updates of at least this many bytes go to the background queue: below it, the hand-off costs more than
    /// it saves.
    static let backgroundThreshold = 64 << 10

    private mutating func update<Bytes: Collection>(unsent bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Copy-on-write: a hasher shared by two copies is split, once its queue has drained.
    private mutating func unique() {
        guard !isKnownUniquelyReferenced(&box) else { return }
        box.drain()
        let copy = Box()
        copy.context = box.context
        box = copy
    }

    /// The queue that hashes large updates, and the context in a `Store` that only the queue's blocks retain
    /// (so they do not defeat the uniqueness check above). The context is touched only on the queue, or on the
    /// owner's thread after `drain()`; `inFlight` bounds the chunks retained for the queue.
    private final class Box: @unchecked Sendable {
        private let store = Store()
        private var queue: DispatchQueue?
        private let inFlight = DispatchSemaphore(value: 1)

        var context: Context {
            get { store.context }
            set { store.context = newValue }
        }

        func enqueue<Bytes: Collection & Sendable>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            let queue = self.queue ?? DispatchQueue(label: "memhunt.sha256")
            self.queue = queue
            let (store, inFlight) = (store, inFlight)
            inFlight.wait()
            queue.async {
                if bytes.withContiguousStorageIfAvailable({ store.context.update(UnsafeRawBufferPointer($0)) })
                    == nil
                {
                    Array(bytes).withUnsafeBytes { store.context.update($0) }
                }
                inFlight.signal()
            }
        }

        /// Hashes on the caller's thread; only after `drain()`.
        func updateNow(_ bytes: UnsafeRawBufferPointer) { store.context.update(bytes) }

        /// The digest; only after `drain()`.
        func finalizeNow() -> String { store.context.finalizeHex() }

        /// Waits until every enqueued update is hashed.
        func drain() { queue?.sync {} }
    }

    private final class Store: @unchecked Sendable {
        var context = Context()
    }
}

/// The platform's SHA-256 context, a plain C struct.
private struct Context {
    #if canImport(CommonCrypto)
        private var context = CC_SHA256_CTX()
    #else
        private var context = SHA256_CTX()
    #endif

    init() {
        #if canImport(CommonCrypto)
            CC_SHA256_Init(&context)
        #else
            SHA256_Init(&context)
        #endif
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            // CommonCrypto takes a 32-bit length.
            let count = min(remaining, 1 << 30)
            #if canImport(CommonCrypto)
                CC_SHA256_Update(&context, base, CC_LONG(count))
            #else
                SHA256_Update(&context, base, count)
            #endif
            base += count
            remaining -= count
        }
    }

    mutating func finalizeHex() -> String {
        var digest = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &digest) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            #if canImport(CommonCrypto)
                CC_SHA256_Final(bytes.baseAddress, &context)
            #else
                SHA256_Final(bytes.baseAddress, &context)
            #endif
            return String(unsafeUninitializedCapacity: 64) { out in
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { hex in
                    for (index, byte) in bytes.enumerated() {
                        out[2 * index] = hex[Int(byte >> 4)]
                        out[2 * index + 1] = hex[Int(byte & 0xf)]
                    }
                }
                return 64
            }
        }
    }
}
