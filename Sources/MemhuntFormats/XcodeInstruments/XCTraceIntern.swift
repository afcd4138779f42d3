/// The id → value table of an export (see `XCTraceScanner`), in two tiers of the same kind (`Tier`): values of
/// elements whose name is seldom referred to (`XCTraceNameStats`: time stamps, addresses) are kept in the small
/// transient tier, all others in the durable one, so that a flood of values no row refers to again does not push
/// out those that rows refer to again and again. A transient value that is referred to is copied to the durable
/// tier.
struct XCTraceIntern {
    static let durableCapacity = 49_152
    static let transientCapacity = 12_288
    /// Bytes of values (and their 6-byte headers) a generation holds for each id it may hold.
    static let poolBytesPerId = 16
    static let valueLimit = 1024

    private var durable: Tier
    private var transient: Tier
    /// Refs to ids that were not held because the table had dropped a generation (or never defined).
    var dropped = 0

    /// Tiers of `capacity` and `transient` ids per generation (smaller ones for tests of the bound).
    init(capacity: Int = durableCapacity, transient: Int = transientCapacity) {
        durable = Tier(capacity: capacity)
        self.transient = Tier(capacity: transient)
    }

    /// The ids the table holds at most.
    var capacity: Int { 2 * (durable.capacity + transient.capacity) }
    /// Whether a generation was dropped: an id not held may have been.
    var rotated: Bool { durable.rotated || transient.rotated }

    /// Keeps `value` under `id`, defined at `line`, in the durable tier unless `durable` is false (and no durable
    /// value of the id stands before it); the line of the definition held before, if any.
    mutating func define(_ id: Int, _ value: UnsafeBufferPointer<UInt8>, line: Int, durable isDurable: Bool = true)
        -> Int?
    {
        let key = Self.key(id)
        let earlier = durable.record(key)
        if isDurable || earlier != nil {
            let held = earlier?.line ?? transient.record(key)?.line
            durable.store(key, value, line: line)
            return held
        }
        let held = transient.record(key)?.line
        transient.store(key, value, line: line)
        return held
    }

    /// Whether `id` is held, and where it was defined.
    func definedLine(_ id: Int) -> Int? {
        let key = Self.key(id)
        return (durable.record(key) ?? transient.record(key))?.line
    }

    /// The value of `id`; one in an older generation, or in the transient tier, is copied to the durable tier's
    /// newer generation. Valid until the next change.
    mutating func value(_ id: Int) -> UnsafeBufferPointer<UInt8>? {
        let key = Self.key(id)
        if let bytes = durable.value(key) { return bytes }
        guard let record = transient.record(key) else { return nil }
        // The transient tier's memory is apart from the durable tier's: the record stays as it is copied.
        durable.store(key, record.bytes, line: record.line)
        return durable.record(key)?.bytes
    }

    /// 0 stands for an empty slot.
    private static func key(_ id: Int) -> UInt64 { UInt64(UInt(bitPattern: id)) &+ 1 }

    /// Two generations, each an open-addressing table of at most `capacity` ids over a pool of their values of at
    /// most `poolCapacity` bytes. When the newer generation is full the older one is emptied and becomes the
    /// newer; a value found in the older one is copied to the newer.
    struct Tier {
        /// Ids per generation.
        let capacity: Int
        private let poolCapacity: Int
        private var current = Generation()
        private var previous = Generation()
        private(set) var rotated = false

        init(capacity: Int) {
            self.capacity = max(1, capacity)
            poolCapacity = max(self.capacity * XCTraceIntern.poolBytesPerId, 4 * (XCTraceIntern.valueLimit + 6))
        }

        func record(_ key: UInt64) -> (bytes: UnsafeBufferPointer<UInt8>, line: Int)? {
            current.record(key) ?? previous.record(key)
        }

        /// The value of `key`, copied to the newer generation when it was in the older.
        mutating func value(_ key: UInt64) -> UnsafeBufferPointer<UInt8>? {
            if let record = current.record(key) { return record.bytes }
            guard let record = previous.record(key) else { return nil }
            if mustRotate(adding: record.bytes.count) {
                // Rotating empties the older generation, where the value stands: it is copied out first.
                let bytes = Array(record.bytes)
                bytes.withUnsafeBufferPointer { store(key, $0, line: record.line) }
            } else {
                store(key, record.bytes, line: record.line)
            }
            return current.record(key)?.bytes
        }

        private func mustRotate(adding count: Int) -> Bool {
            current.count >= capacity || current.used + Generation.header + count > poolCapacity
        }

        mutating func store(_ key: UInt64, _ value: UnsafeBufferPointer<UInt8>, line: Int) {
            if mustRotate(adding: value.count) {
                swap(&current, &previous)
                current.empty()
                rotated = true
            }
            current.store(key, value, line: line, capacity: capacity, poolCapacity: poolCapacity)
        }
    }

    /// One generation: slots of keys (linear probing, at most three quarters full) and where each value's record
    /// starts in the pool; a record is its line (4 bytes), length (2) and bytes.
    struct Generation {
        static let header = 6
        private var storage: Storage?
        private(set) var count = 0
        private(set) var used = 0

        final class Storage {
            let mask: Int
            let shift: UInt64
            let keys: UnsafeMutablePointer<UInt64>
            let places: UnsafeMutablePointer<UInt32>
            let pool: UnsafeMutableRawPointer

            init(capacity: Int, poolCapacity: Int) {
                var slots = 4
                while slots * 3 < capacity * 4 { slots *= 2 }
                mask = slots - 1
                shift = UInt64(64 - slots.trailingZeroBitCount)
                keys = .allocate(capacity: slots)
                keys.initialize(repeating: 0, count: slots)
                places = .allocate(capacity: slots)
                pool = .allocate(byteCount: poolCapacity, alignment: 8)
            }

            deinit {
                keys.deallocate()
                places.deallocate()
                pool.deallocate()
            }

            /// The slot holding `key`, or the empty slot where it would go.
            @inline(__always)
            func slot(_ key: UInt64) -> Int {
                var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
                while keys[slot] != key, keys[slot] != 0 { slot = (slot + 1) & mask }
                return slot
            }
        }

        @inline(__always)
        func record(_ key: UInt64) -> (bytes: UnsafeBufferPointer<UInt8>, line: Int)? {
            guard count > 0, let storage else { return nil }
            let slot = storage.slot(key)
            guard storage.keys[slot] != 0 else { return nil }
            let place = storage.pool + Int(storage.places[slot])
            let line = Int(place.loadUnaligned(as: Int32.self))
            let length = Int(place.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
            return (
                UnsafeBufferPointer(start: (place + Self.header).assumingMemoryBound(to: UInt8.self), count: length),
                line
            )
        }

        mutating func store(
            _ key: UInt64, _ value: UnsafeBufferPointer<UInt8>, line: Int, capacity: Int, poolCapacity: Int
        ) {
            if storage == nil || !isKnownUniquelyReferenced(&storage!) {
                let fresh = Storage(capacity: capacity, poolCapacity: poolCapacity)
                if let storage { Self.copy(storage, to: fresh, used: used) }
                storage = fresh
            }
            let storage = storage!
            let slot = storage.slot(key)
            if storage.keys[slot] == 0 {
                storage.keys[slot] = key
                count += 1
            }
            storage.places[slot] = UInt32(used)
            let place = storage.pool + used
            place.storeBytes(of: Int32(clamping: line), as: Int32.self)
            place.storeBytes(of: UInt16(value.count), toByteOffset: 4, as: UInt16.self)
            if let base = value.baseAddress { (place + Self.header).copyMemory(from: base, byteCount: value.count) }
            used += Self.header + value.count
        }

        /// Holds nothing (its memory is kept for the next ids).
        mutating func empty() {
            guard storage != nil, count > 0 else { return }
            if isKnownUniquelyReferenced(&storage!) {
                storage!.keys.update(repeating: 0, count: storage!.mask + 1)
            } else {
                self.storage = nil
            }
            count = 0
            used = 0
        }

        private static func copy(_ from: Storage, to: Storage, used: Int) {
            to.keys.update(from: from.keys, count: from.mask + 1)
            to.places.update(from: from.places, count: from.mask + 1)
            to.pool.copyMemory(from: from.pool, byteCount: used)
        }
    }
}

/// How often the values of each element name are referred to. A name whose values are seldom referred to (fewer
/// than one in 64 once 4,096 of them were defined: a time stamp, an address) has them kept in the intern table's
/// transient tier. Counted for the first 64 names; the others' values are durable.
struct XCTraceNameStats {
    static let names = 64
    static let settled = 4096

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []

    struct Entry {
        var start: Int
        var count: Int
        var defined = 0
        var referred = 0
    }

    /// The entry of `name`, nil when 64 other names took every entry.
    mutating func slot(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        search: for index in entries.indices where entries[index].count == name.count {
            let start = entries[index].start
            for offset in 0..<name.count where bytes[start + offset] != name[offset] { continue search }
            return index
        }
        guard entries.count < Self.names, name.count <= 256 else { return nil }
        entries.append(Entry(start: bytes.count, count: name.count))
        bytes.append(contentsOf: name)
        return entries.count - 1
    }

    mutating func refer(_ slot: Int) { entries[slot].referred += 1 }

    /// Counts a definition; whether the name's values are kept in the durable tier.
    mutating func define(_ slot: Int) -> Bool {
        entries[slot].defined += 1
        return entries[slot].defined < Self.settled || entries[slot].referred * 64 >= entries[slot].defined
    }
}
