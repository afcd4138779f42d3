import MemhuntCore
import MemhuntFormats

/// Captures of one kind in the order they were taken: by their date (parsed, so that offsets compare; as
/// written where it does not parse), undated ones first; captures of the same moment, or with no date, keep
/// the order the artifacts were given in (the operands' order), never their file names' (a `before`/`after`
/// pair of one time was compared after → before).
enum CaptureOrder {
    static func sorted<Report>(_ captures: [(Artifact, Report)], date: (Report) -> String?) -> [(Artifact, Report)] {
        let keyed = captures.enumerated().map { index, capture in
            let written = date(capture.1)
            return (index: index, time: written.flatMap(AppleDate.parse), written: written, capture: capture)
        }
        return keyed.sorted { a, b in
            switch (a.time, b.time) {
            case (let x?, let y?) where x != y: return x < y
            case (nil, nil) where a.written != b.written: return (a.written ?? "") < (b.written ?? "")
            case (nil, .some): return true
            case (.some, nil): return false
            default: return a.index < b.index
            }
        }.map(\.capture)
    }
}
