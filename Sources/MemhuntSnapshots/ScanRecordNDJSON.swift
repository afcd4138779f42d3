import MemhuntFormats

extension ScanRecord {
    /// The schema id of every `memhunt scan --format ndjson` line (its `schema` key).
    public static let ndjsonSchema = "memhunt.record/1"

    /// The record as one line of `memhunt scan --format ndjson`, with its newline: `schema` and the `Encodable` fields,
    /// keys sorted, absent values left out, numbers as `JSONEncoder` writes them (a whole MB is `725`, not `725.0`).
    /// Written by hand: with one `JSONEncoder` per record the ndjson scan cost far more CPU than `--format json`; with
    /// this writer, lines written 64 KiB at a time and no aggregate folded for ndjson without `--app`, it measured
    /// close to `--format json`.
    public var ndjsonLine: String {
        var out = "{\"apps\":["
        out.reserveCapacity(160 + apps.count * 110 + file.utf8.count)
        for (index, app) in apps.enumerated() {
            if index > 0 { out += "," }
            out += "{\"name\":"
            JSON.appendString(app.name, to: &out)
            if let peak = app.peakKiB {
                out += ",\"peakMB\":"
                Self.appendNumber(ScanFigures.megabytes(peak), to: &out)
            }
            if let rank = app.rank {
                out += ",\"rank\":"
                out += String(rank)
            }
            if let reason = app.reason {
                out += ",\"reason\":"
                JSON.appendString(reason, to: &out)
            }
            if let resident = app.residentKiB {
                out += ",\"residentMB\":"
                Self.appendNumber(ScanFigures.megabytes(resident), to: &out)
            }
            if let state = app.state {
                out += ",\"state\":"
                JSON.appendString(state, to: &out)
            }
            out += "}"
        }
        out += "]"
        if let build {
            out += ",\"build\":"
            JSON.appendString(build, to: &out)
        }
        if let compressions {
            out += ",\"compressions\":"
            out += String(compressions)
        }
        out += ",\"file\":"
        JSON.appendString(file, to: &out)
        out += ",\"kind\":"
        JSON.appendString(kind, to: &out)
        if let product {
            out += ",\"product\":"
            JSON.appendString(product, to: &out)
        }
        out += ",\"schema\":\"" + Self.ndjsonSchema + "\""
        if let time {
            out += ",\"time\":"
            Self.appendNumber(time, to: &out)
        }
        out += "}\n"
        return out
    }

    /// An SDK export's event as one ndjson line (kind `sdk-export`): its SDK, claim, the claim's time in UTC with
    /// what it is and its clock, app and device, keys sorted. The grade needs the OS records of the whole fleet: it
    /// is in the scan's report, not in a line.
    public static func ndjsonLine(of event: SDKEvent, file: String) -> String {
        var fields: [(String, String?)] = [
            ("app", event.app), ("build", event.osBuild), ("bundleID", event.bundleID), ("claim", event.claim.rawValue),
            ("clock", event.time?.clock), ("eventID", event.eventID), ("file", file), ("kind", "sdk-export"),
            ("os", event.os), ("product", event.device), ("schema", ndjsonSchema), ("sdk", event.sdk.rawValue),
            ("shape", event.shape), ("timeBasis", event.time?.basis), ("timeWritten", event.time?.text),
        ]
        fields.sort { $0.0 < $1.0 }
        var out = "{"
        var first = true
        for (key, value) in fields {
            guard let value else { continue }
            if !first { out += "," }
            first = false
            // `time` sorts before `timeBasis`: seconds since 1970 in UTC, when the time has a zone.
            if key == "timeBasis", let utc = event.time?.utc {
                out += "\"time\":"
                appendNumber(utc, to: &out)
                out += ","
            }
            JSON.appendString(key, to: &out)
            out += ":"
            JSON.appendString(value, to: &out)
        }
        out += "}\n"
        return out
    }

    /// A number as `JSONEncoder` writes a `Double`: its `description` without a trailing `.0`; a value
    /// that is not finite (no record has one) as `null`, where the encoder failed the whole line.
    static func appendNumber(_ value: Double, to out: inout String) {
        guard value.isFinite else {
            out += "null"
            return
        }
        let text = value.description
        out += text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
