/// One row of the `REGION TYPE` table of `vmmap --summary` (sizes in bytes).
public struct VMMapRegion: Sendable, Hashable {
    /// Region type, which may contain spaces (`CG raster data`, `MALLOC_TINY (empty)`).
    public var name: String
    /// The VIRTUAL SIZE column.
    public var virtualBytes: Int?
    /// The RESIDENT SIZE column (8-column tables).
    public var residentBytes: Int?
    /// The DIRTY SIZE column (8-column tables).
    public var dirtyBytes: Int?
    /// The SWAPPED SIZE column (8-column tables).
    public var swappedBytes: Int?
    /// The `REGION COUNT` column.
    public var regionCount: Int?
    /// Trailing text such as `see MALLOC ZONE table below`.
    public var note: String?

    public init(
        name: String, virtualBytes: Int? = nil, residentBytes: Int? = nil, dirtyBytes: Int? = nil,
        swappedBytes: Int? = nil, regionCount: Int? = nil, note: String? = nil
    ) {
        self.name = name
        self.virtualBytes = virtualBytes
        self.residentBytes = residentBytes
        self.dirtyBytes = dirtyBytes
        self.swappedBytes = swappedBytes
        self.regionCount = regionCount
        self.note = note
    }

    /// Dirty plus swapped bytes, the region's share of the footprint (8-column tables only).
    public var footprintBytes: Int? {
        guard let dirtyBytes else { return nil }
        return dirtyBytes + (swappedBytes ?? 0)
    }
}

/// `vmmap --summary` text: the header footprint lines and the region table.
public struct VMMapSummary: Sendable, Hashable {
    /// From `Process:`.
    public var processName: String?
    /// From `Process:`.
    public var pid: Int?
    /// `macOS`, `iOS Simulator`, …
    public var platform: String?
    /// `Date/Time:` as written.
    public var dateTime: String?
    /// `Physical footprint:` in bytes: the `phys_footprint` the system watches.
    public var physicalFootprintBytes: Int?
    /// `Physical footprint (peak):` in bytes.
    public var physicalFootprintPeakBytes: Int?
    /// Table rows in file order, without the TOTAL rows.
    public var regions: [VMMapRegion]
    /// The first `TOTAL` row.
    public var total: VMMapRegion?

    public init(
        processName: String? = nil, pid: Int? = nil, platform: String? = nil, dateTime: String? = nil,
        physicalFootprintBytes: Int? = nil, physicalFootprintPeakBytes: Int? = nil, regions: [VMMapRegion] = [],
        total: VMMapRegion? = nil
    ) {
        self.processName = processName
        self.pid = pid
        self.platform = platform
        self.dateTime = dateTime
        self.physicalFootprintBytes = physicalFootprintBytes
        self.physicalFootprintPeakBytes = physicalFootprintPeakBytes
        self.regions = regions
        self.total = total
    }

    /// Row names that hold layer backing stores and decoded images, reported beside CoreAnimation.
    public static let layerMemoryRegionNames = [
        "CoreAnimation", "IOSurface", "IOAccelerator", "CG image", "CG raster data", "CG backing stores",
    ]

    /// The first row named exactly `name`.
    public func region(_ name: String) -> VMMapRegion? { regions.first { $0.name == name } }

    /// The `CoreAnimation` row (VM tag LAYERKIT): dirty + swapped when the table has those columns
    /// (what counts toward the footprint), else the virtual size of the 2-column crash-report shape.
    public var coreAnimationBytes: Int? {
        guard let row = region("CoreAnimation") else { return nil }
        return row.footprintBytes ?? row.virtualBytes
    }

    /// The rows of `layerMemoryRegionNames` that are present, in that order.
    public var layerMemoryRegions: [VMMapRegion] {
        Self.layerMemoryRegionNames.compactMap { region($0) }
    }

    /// Whether `prefix` looks like vmmap output: its `Analysis Tool`, or a region table outside a crash report.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool { matches(lines: ReproText.sniffLines(prefix)) }

    static func matches(lines: [String]) -> Bool {
        if lines.contains(where: { $0.hasPrefix("Analysis Tool:") }) {
            return lines.contains { $0.hasPrefix("Analysis Tool:") && $0.hasSuffix("vmmap") }
        }
        let crashMarkers = ["Exception Type:", "Incident Identifier:", "Crashed Thread:", "{\"bug_type\""]
        return lines.contains { $0.hasPrefix("REGION TYPE") }
            && !lines.contains { line in crashMarkers.contains { line.hasPrefix($0) } }
    }

    /// Parses the header and every `REGION TYPE` table (the MALLOC ZONE table is skipped).
    public static func parse(_ bytes: [UInt8]) -> Result<VMMapSummary, FormatError> {
        var summary = VMMapSummary()
        var columns: [Substring] = []
        var inTable = false
        let lines = ReproText.lines(bytes)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if let value = ReproText.headerValue(line, "Process:") {
                (summary.processName, summary.pid) = ReproText.nameAndPID(value)
            } else if let value = ReproText.headerValue(line, "Platform:") {
                summary.platform = String(value)
            } else if let value = ReproText.headerValue(line, "Date/Time:") {
                summary.dateTime = String(value)
            } else if let value = ReproText.headerValue(line, "Physical footprint (peak):") {
                guard let size = ReproText.binarySize(value) else {
                    return .failure(FormatError("bad peak footprint \(FormatError.quoted(value))", line: number))
                }
                summary.physicalFootprintPeakBytes = size
            } else if let value = ReproText.headerValue(line, "Physical footprint:") {
                guard let size = ReproText.binarySize(value) else {
                    return .failure(FormatError("bad physical footprint \(FormatError.quoted(value))", line: number))
                }
                summary.physicalFootprintBytes = size
            } else if line.hasPrefix("REGION TYPE") {
                // Column names come from the line above: `VIRTUAL RESIDENT … REGION`.
                columns = index > 0 ? ReproText.tokens(lines[index - 1]) : []
                inTable = true
            } else if inTable, line.hasPrefix("===") {
                continue
            } else if inTable, let row = region(line, columns: columns) {
                if row.name.hasPrefix("TOTAL") {
                    if summary.total == nil { summary.total = row }
                } else {
                    summary.regions.append(row)
                }
            } else if inTable, ReproText.trimmed(line).isEmpty {
                inTable = false
            }
        }
        if summary.regions.isEmpty && summary.physicalFootprintBytes == nil {
            return .failure(FormatError("no region table and no 'Physical footprint:' line"))
        }
        return .success(summary)
    }

    /// A row read from the right: the first run of two or more size tokens is the numeric columns,
    /// text before it the name and text after it the note.
    static func region(_ line: String, columns: [Substring]) -> VMMapRegion? {
        let tokens = ReproText.tokens(line)
        // Each token's size once (the search below looked at most tokens three or four times).
        let sizes = tokens.map { ReproText.binarySize($0) }
        guard
            var start = tokens.indices.first(where: { index in
                index > 0 && index + 1 < tokens.count && sizes[index] != nil && sizes[index + 1] != nil
            })
        else { return nil }
        var end = start
        while end < tokens.count, sizes[end] != nil { end += 1 }
        // A name that ends in a number (`Memory Tag 253`) gives one value too many: read from the right.
        if !columns.isEmpty, end - start > columns.count, start + (end - start - columns.count) > 0 {
            start += end - start - columns.count
        }
        let values = sizes[start..<end].compactMap { $0 }
        let nameEnd = tokens[start - 1].endIndex
        var row = VMMapRegion(name: String(ReproText.trimmed(line[..<nameEnd])))
        let note = end < tokens.count ? ReproText.trimmed(line[tokens[end].startIndex...]) : ""
        row.note = note.isEmpty ? nil : String(note)
        let names = columns.count == values.count ? columns : []
        func value(_ column: String, fallback: Int?) -> Int? {
            names.isEmpty ? fallback.map { values[$0] } : names.firstIndex(of: Substring(column)).map { values[$0] }
        }
        row.virtualBytes = value("VIRTUAL", fallback: 0)
        row.residentBytes = value("RESIDENT", fallback: nil)
        row.dirtyBytes = value("DIRTY", fallback: nil)
        row.swappedBytes = value("SWAPPED", fallback: nil)
        row.regionCount = value("REGION", fallback: values.count - 1)
        return row
    }
}

extension VMMapSummary: ReproFormat {
    public static let kind = ArtifactKind.vmmapSummary
    public static let fixtures = ["Fixtures/formats/repro/vmmap-detail-after.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: VMMapSummary) -> ReproArtifact { .vmmap(value) }
}
