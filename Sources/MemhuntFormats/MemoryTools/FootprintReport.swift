/// One row of the `footprint` category table (sizes in bytes).
public struct FootprintCategory: Sendable, Hashable {
    /// `CoreAnimation`, `MALLOC_NANO`, `mapped file`, … (the vmmap region type names).
    public var name: String
    /// Dirty bytes (counted in the footprint).
    public var dirtyBytes: Int
    /// Clean bytes (not counted).
    public var cleanBytes: Int
    /// Reclaimable (purgeable) bytes.
    public var reclaimableBytes: Int
    /// Number of VM regions.
    public var regions: Int

    public init(name: String, dirtyBytes: Int, cleanBytes: Int, reclaimableBytes: Int, regions: Int) {
        self.name = name
        self.dirtyBytes = dirtyBytes
        self.cleanBytes = cleanBytes
        self.reclaimableBytes = reclaimableBytes
        self.regions = regions
    }
}

/// `footprint <pid|name>` text output. With several processes only the first block is read.
public struct FootprintReport: Sendable, Hashable {
    /// Process name from the banner.
    public var processName: String?
    /// Process id from the banner.
    public var pid: Int?
    /// The banner's `Footprint:` value in bytes.
    public var footprintBytes: Int?
    /// `(16384 bytes per page)` when printed.
    public var pageSize: Int?
    /// Auxiliary `phys_footprint:` in bytes.
    public var physFootprintBytes: Int?
    /// Auxiliary `phys_footprint_peak:` in bytes.
    public var peakBytes: Int?
    /// Category rows in file order, without TOTAL.
    public var categories: [FootprintCategory]
    /// The TOTAL row.
    public var total: FootprintCategory?

    public init(
        processName: String? = nil, pid: Int? = nil, footprintBytes: Int? = nil, pageSize: Int? = nil,
        physFootprintBytes: Int? = nil, peakBytes: Int? = nil, categories: [FootprintCategory] = [],
        total: FootprintCategory? = nil
    ) {
        self.processName = processName
        self.pid = pid
        self.footprintBytes = footprintBytes
        self.pageSize = pageSize
        self.physFootprintBytes = physFootprintBytes
        self.peakBytes = peakBytes
        self.categories = categories
        self.total = total
    }

    /// Dirty bytes of the `CoreAnimation` category, when it exists.
    public var coreAnimationDirtyBytes: Int? { categories.first { $0.name == "CoreAnimation" }?.dirtyBytes }

    /// Whether `prefix` has the `====` banner and a `Name [pid]: 64-bit    Footprint:` line.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool { matches(lines: ReproText.sniffLines(prefix)) }

    static func matches(lines: [String]) -> Bool {
        lines.contains { $0.hasPrefix("=====") } && lines.contains { bannerLine($0) != nil }
    }

    /// Parses the first process block: banner, category table and auxiliary data.
    public static func parse(_ bytes: [UInt8]) -> Result<FootprintReport, FormatError> {
        var report = FootprintReport()
        var sawBanner = false
        for (index, line) in ReproText.lines(bytes).enumerated() {
            let number = index + 1
            let tokens = ReproText.tokens(line)
            if let banner = bannerLine(line) {
                if sawBanner { break }
                sawBanner = true
                (report.processName, report.pid) = ReproText.nameAndPID(banner.name)
                let value = ReproText.tokens(banner.footprint)
                guard value.count >= 2, let size = ReproText.unitSize(value[0], value[1]) else {
                    return .failure(
                        FormatError("bad Footprint value \(FormatError.quoted(banner.footprint))", line: number))
                }
                report.footprintBytes = size
                if value.count >= 3, value[2].hasPrefix("(") { report.pageSize = Int(value[2].dropFirst()) }
            } else if tokens.count == 3, tokens[0] == "phys_footprint:" || tokens[0] == "phys_footprint_peak:" {
                guard let size = ReproText.unitSize(tokens[1], tokens[2]) else {
                    return .failure(FormatError("bad \(tokens[0]) value", line: number))
                }
                if tokens[0] == "phys_footprint:" { report.physFootprintBytes = size } else { report.peakBytes = size }
            } else if tokens.count >= 8, let row = category(tokens, line: line) {
                if row.name == "TOTAL" { report.total = row } else { report.categories.append(row) }
            }
        }
        guard sawBanner else { return .failure(FormatError("no 'Name [pid]: 64-bit    Footprint:' line")) }
        return .success(report)
    }

    /// `Name [pid]: 64-bit    Footprint: 242 MB` split into the name part and the footprint text.
    static func bannerLine(_ line: String) -> (name: Substring, footprint: Substring)? {
        // Every line of the file and of every sniffed prefix comes here: the byte test first (the
        // `Character`-level searches below were most of the parse).
        guard ReproText.containsBytes(line, "Footprint: "), ReproText.containsBytes(line, "]: ") else { return nil }
        guard let bits = line.firstRange(of: "]: "), let key = line.firstRange(of: "Footprint: "),
            bits.upperBound <= key.lowerBound,
            line[bits.upperBound...].hasPrefix("64-bit") || line[bits.upperBound...].hasPrefix("32-bit")
        else { return nil }
        return (line[..<line.index(after: bits.lowerBound)], line[key.upperBound...])
    }

    /// `752 KB   0 B   0 B   1   MALLOC_NANO`: three sizes, a region count, then the category name.
    static func category(_ tokens: [Substring], line: String) -> FootprintCategory? {
        guard let dirty = ReproText.unitSize(tokens[0], tokens[1]),
            let clean = ReproText.unitSize(tokens[2], tokens[3]),
            let reclaimable = ReproText.unitSize(tokens[4], tokens[5]), let regions = Int(tokens[6])
        else { return nil }
        let name = ReproText.trimmed(line[tokens[7].startIndex...])
        return FootprintCategory(
            name: String(name), dirtyBytes: dirty, cleanBytes: clean, reclaimableBytes: reclaimable, regions: regions)
    }
}

extension FootprintReport: ReproFormat {
    public static let kind = ArtifactKind.footprint
    public static let fixtures = ["Fixtures/formats/repro/footprint-detail.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: FootprintReport) -> ReproArtifact { .footprint(value) }
}
