/// Pixel dimensions of a PNG, JPEG or HEIC image, read from its header without decoding.
public struct ImageInfo: Sendable, Hashable {
    /// `png`, `jpeg` or `heic`.
    public var format: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    public init(format: String, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Bytes of the decoded bitmap at 4 bytes per pixel (width × height × 4), what the image costs in memory.
    public var decodedBytes: Int {
        let (bytes, overflow) = width.multipliedReportingOverflow(by: height &* 4)
        return overflow ? Int.max : bytes
    }

    static let pngMagic: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let heifBrands: Set<String> = ["heic", "heix", "mif1", "msf1"]

    /// Whether `prefix` starts with PNG or JPEG magic bytes or an `ftyp` box with a HEIF brand.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(prefix.prefix(64))
        return bytes.starts(with: pngMagic) || bytes.starts(with: [0xFF, 0xD8, 0xFF]) || isHEIF(bytes)
    }

    /// Reads the dimensions: PNG `IHDR`, JPEG `SOFn`, or the largest HEIC `ispe` (the primary image).
    public static func parse(_ bytes: [UInt8]) -> Result<ImageInfo, FormatError> {
        if bytes.starts(with: pngMagic) { return png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes) }
        if isHEIF(bytes) { return heic(bytes) }
        return .failure(FormatError("not a PNG, JPEG or HEIC header", offset: 0))
    }

    static func be(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    static func fourCC(_ bytes: [UInt8], _ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    static func isHEIF(_ bytes: [UInt8]) -> Bool {
        guard fourCC(bytes, 4) == "ftyp", let size = be(bytes, 0, 4), size >= 16 else { return false }
        // Major brand at 8, minor version at 12, compatible brands from 16 to the box end.
        return stride(from: 8, to: min(size, bytes.count, 64), by: 4).contains { offset in
            offset != 12 && fourCC(bytes, offset).map(heifBrands.contains) == true
        }
    }

    static func png(_ bytes: [UInt8]) -> Result<ImageInfo, FormatError> {
        // Xcode's compressed PNGs (pngcrush -iphone) put a 4-byte `CgBI` chunk before `IHDR`.
        var ihdr = 8
        if fourCC(bytes, 12) == "CgBI", let length = be(bytes, 8, 4), length < 64 { ihdr += 12 + length }
        guard fourCC(bytes, ihdr + 4) == "IHDR", let width = be(bytes, ihdr + 8, 4),
            let height = be(bytes, ihdr + 12, 4)
        else {
            return .failure(FormatError("PNG without a complete IHDR chunk", offset: 8))
        }
        return .success(ImageInfo(format: "png", width: width, height: height))
    }

    static func jpeg(_ bytes: [UInt8]) -> Result<ImageInfo, FormatError> {
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else {
                return .failure(FormatError("JPEG marker expected", offset: offset))
            }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // standalone markers carry no length
                offset += 2
                continue
            }
            if marker == 0xD9 || marker == 0xDA { break }  // end of image, or entropy-coded data follows
            guard let length = be(bytes, offset + 2, 2), length >= 2 else { break }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = be(bytes, offset + 5, 2), let width = be(bytes, offset + 7, 2) else { break }
                return .success(ImageInfo(format: "jpeg", width: width, height: height))
            }
            offset += 2 + length
        }
        return .failure(FormatError("JPEG without a SOF marker before the image data", offset: offset))
    }

    static func heic(_ bytes: [UInt8]) -> Result<ImageInfo, FormatError> {
        var best: (width: Int, height: Int)?
        var visited = 0
        // Walks `meta` → `iprp` → `ipco` → `ispe`; `visited` bounds the walk on hostile box sizes.
        func walk(_ start: Int, _ end: Int, depth: Int) {
            var offset = start
            while offset + 8 <= end, depth < 8, visited < 10_000 {
                visited += 1
                guard var size = be(bytes, offset, 4), let type = fourCC(bytes, offset + 4) else { return }
                var header = 8
                if size == 1 {
                    guard let large = be(bytes, offset + 8, 8) else { return }
                    (size, header) = (large, 16)
                } else if size == 0 {
                    size = end - offset
                }
                guard size >= header, size <= end - offset else { return }
                switch type {
                case "meta": walk(offset + header + 4, offset + size, depth: depth + 1)  // full box
                case "iprp", "ipco": walk(offset + header, offset + size, depth: depth + 1)
                case "ispe":
                    if let width = be(bytes, offset + header + 4, 4), let height = be(bytes, offset + header + 8, 4),
                        Double(width) * Double(height) > best.map({ Double($0.width) * Double($0.height) }) ?? -1
                    {
                        best = (width, height)
                    }
                default: break
                }
                offset += size
            }
        }
        walk(0, bytes.count, depth: 0)
        guard let best else { return .failure(FormatError("HEIF without an 'ispe' property")) }
        return .success(ImageInfo(format: "heic", width: best.width, height: best.height))
    }
}

extension ImageInfo: ReproFormat {
    public static let kind = ArtifactKind.image
    public static let fixtures = [
        "Fixtures/widget/sky-512.png", "Fixtures/formats/repro/image-2048x1536.jpg",
        "Fixtures/formats/repro/image-4032x3024.heic",
    ]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(sniff.head) }
    public static func artifact(_ value: ImageInfo) -> ReproArtifact { .image(value) }
}
