/// Reads crash reports in their three shapes: 309 JSON body, `.ips` header + legacy text, header-less text.
public enum CrashParser {
    /// The crash report of a bug_type 309 JSON body.
    public static func parse(jsonBody body: JSONValue, header: IPSHeader?) throws(FormatError) -> CrashReport {
        guard body.members != nil else { throw FormatError("crash report body is not a JSON object") }
        let exception = body["exception"]
        let termination = body["termination"]
        let processName = body["procName"]?.string
        let bundleID = body[path: "bundleInfo", "CFBundleIdentifier"]?.string ?? header?.bundleID
        let date = body["captureTime"]?.string ?? header?.timestamp
        let codeValue = termination?["code"]
        let code = codeValue?.uint64 ?? codeValue?.string.flatMap(parseCode)
        let lines =
            [termination?["indicator"]?.string].compactMap { $0 }
            + (termination?["reasons"]?.elements?.compactMap(\.string) ?? [])
        var report = CrashReport(
            format: .ipsJSON, header: header,
            appName: nonEmpty(header?.appName) ?? nonEmpty(header?.name) ?? nonEmpty(processName) ?? bundleID,
            processName: processName, bundleID: bundleID, date: date, time: date.flatMap(AppleDate.parse),
            exceptionType: exception?["type"]?.string, signal: exception?["signal"]?.string,
            exceptionSubtype: exception?["subtype"]?.string, exceptionMessage: trimmed(exception?["message"]?.string),
            terminationNamespace: termination?["namespace"]?.string, terminationCode: code,
            terminationDescription: lines.isEmpty ? nil : lines.joined(separator: "\n"), kind: .other)
        report.kind = classify(report)
        report.exceptionCodes = exception?["codes"]?.string
        let train = body[path: "osVersion", "train"]?.string
        let build = body[path: "osVersion", "build"]?.string
        report.osVersion = train.map { $0 + (build.map { " (\($0))" } ?? "") } ?? header?.osVersion
        report.device = body["modelCode"]?.string
        report.incidentID = nonEmpty(body["incident"]?.string) ?? nonEmpty(header?.incidentID)
        let version = body[path: "bundleInfo", "CFBundleShortVersionString"]?.string
        let buildVersion = body[path: "bundleInfo", "CFBundleVersion"]?.string
        report.appVersion = version.map { $0 + (buildVersion.map { " (\($0))" } ?? "") } ?? buildVersion
        let threads = body["threads"]?.elements ?? []
        let images = body["usedImages"]?.elements ?? []
        // A watchdog kills a blocked main thread: its frames are the evidence. Otherwise the triggered thread.
        let mainIndex =
            threads.firstIndex { $0["queue"]?.string == "com.apple.main-thread" } ?? (threads.isEmpty ? nil : 0)
        let triggered =
            threads.firstIndex { $0["triggered"]?.bool == true } ?? body["faultingThread"]?.int
        let pick = report.kind == .watchdog ? (mainIndex ?? triggered) : (triggered ?? mainIndex)
        if let pick, threads.indices.contains(pick) {
            report.framesThread =
                "thread \(pick)" + (pick == mainIndex ? " (main thread)" : "")
                + (pick == triggered ? ", triggered" : "")
            report.frames = (threads[pick]["frames"]?.elements ?? []).prefix(8).map { frame in
                let image = frame["imageIndex"]?.int.flatMap {
                    images.indices.contains($0) ? images[$0]["name"]?.string : nil
                }
                let symbol = frame["symbol"]?.string ?? frame["imageOffset"]?.uint64.map { "+\($0)" } ?? "?"
                return (image.map { $0 + " " } ?? "") + symbol
            }
        }
        // A file lock held while suspended is what 0xdead10cc means; the evidence is a thread inside SQLite's
        // code. A "SQLite page cache" region or libsqlite3 among the binary images is in almost every app.
        if report.terminationCode == 0xDEAD_10CC {
            var frames: [String] = []
            for (index, thread) in threads.enumerated() {
                for frame in thread["frames"]?.elements ?? [] {
                    let image = frame["imageIndex"]?.int.flatMap {
                        images.indices.contains($0) ? images[$0]["name"]?.string : nil
                    }
                    let line = "thread \(index): " + (image.map { $0 + " " } ?? "") + (frame["symbol"]?.string ?? "")
                    frames.append(line)
                }
            }
            report.fileLockEvidence = fileLock(frames)
        }
        return report
    }

    /// The `.ips` (header line and JSON body) after a translated report's `Full Report` line, read as a crash
    /// report; nil when there is none or it does not read.
    static func fullReport(after bytes: ArraySlice<UInt8>) -> CrashReport? {
        let marker = Array("\nFull Report".utf8)
        guard let at = bytes.firstRange(of: marker)?.lowerBound else { return nil }
        guard let open = bytes[at...].firstIndex(of: UInt8(ascii: "{")) else { return nil }
        let rest = Array(bytes[open...])
        guard let (header, bodyOffset) = ArtifactReader.sniffIPSHeader(rest), header.bugType == "309",
            let (body, _) = try? JSON.parsePrefix(rest, from: bodyOffset)
        else { return nil }
        return try? parse(jsonBody: body, header: header)
    }

    /// Frames inside SQLite: a database holding a file lock (evidence only beside 0xdead10cc).
    static func fileLock(_ lines: [String]) -> [String] {
        lines.filter { $0.lowercased().contains("sqlite") }.map { $0.trimmingSpaces }.prefix(5).map { $0 }
    }

    /// The crash report of legacy text (`Incident Identifier:` …, a fragment from `Exception Type:`, or a
    /// Console "Translated Report"); `header` is set for `.ips` hybrids (109, 185).
    public static func parse(text whole: ArraySlice<UInt8>, header: IPSHeader?) -> CrashReport {
        // A page may hold a second report after the first (Apple's technical notes print a low-memory report,
        // then a crash report): this is the first, never one report made of both, and the second is named.
        let second = secondReport(in: whole)
        let bytes = second.map { whole[..<$0.offset] } ?? whole
        let fields = textFields(bytes)
        let process = fields["Process"].map { ReproText.nameAndPID($0).name }
        let bundleID = fields["Identifier"] ?? header?.bundleID
        let date = fields["Date/Time"] ?? header?.timestamp
        let (exceptionType, parsedSignal) = splitExceptionType(fields["Exception Type"])
        let (namespace, code, reasonText) = parseTerminationReason(fields["Termination Reason"])
        var signal = parsedSignal ?? fields["Termination Signal"].flatMap { signalName(strsignal: $0) }
        if namespace == "SIGNAL", signal == nil, let code { signal = signalName(number: code) }
        var report = CrashReport(
            format: header == nil ? .text : .ipsText, header: header,
            appName: nonEmpty(header?.appName) ?? nonEmpty(header?.name) ?? nonEmpty(process) ?? bundleID,
            processName: process, bundleID: bundleID, date: date, time: date.flatMap(AppleDate.parse),
            exceptionType: exceptionType, signal: signal, exceptionSubtype: fields["Exception Subtype"],
            exceptionMessage: fields["Exception Message"], terminationNamespace: namespace, terminationCode: code,
            terminationDescription: fields["Termination Description"] ?? reasonText
                ?? (namespace?.uppercased() == "SIGNAL" ? nonEmpty(fields["Termination Signal"]) : nil),
            kind: .other)
        report.kind = classify(report)
        report.exceptionCodes = fields["Exception Codes"]
        report.osVersion = fields["OS Version"] ?? header?.osVersion
        report.device = fields["Hardware Model"]
        report.incidentID = nonEmpty(fields["Incident Identifier"]) ?? nonEmpty(header?.incidentID)
        if let second {
            report.recovery = Recovery(
                state: .recovered,
                notes: [
                    "line \(second.line) starts another report (\(second.what)): a record of its own, not read into this one"
                ])
        }
        // iOS's legacy text writes `Version: BUILD (SHORT)` (CFBundleVersion first); the JSON form, macOS's text
        // (an iOS app on a Mac included), Xcode's "Translated Report" and every fact say `SHORT (BUILD)`, as the
        // App Store shows it.
        let mac = ["Mac OS", "macOS"].contains { (fields["OS Version"] ?? "").hasPrefix($0) }
        let translated = fields["Translated Report (Full Report Below)"] != nil
        report.appVersion = fields["Version"].map { mac || translated ? $0 : Self.shortVersionFirst($0) }
        // A translated report is followed by the `.ips` it was made from: its bundle info and termination
        // indicator are what the text leaves out or words another way.
        if translated, let full = Self.fullReport(after: bytes) {
            report.appVersion = full.appVersion ?? report.appVersion
            report.bundleID = report.bundleID ?? full.bundleID
            if let indicator = full.terminationDescription, report.terminationDescription == nil {
                report.terminationDescription = indicator
            }
            report.incidentID = report.incidentID ?? full.incidentID
        }
        let threads = threadBlocks(bytes)
        let triggered = fields["Triggered by Thread"].flatMap { Int($0) } ?? threads.first { $0.crashed }?.number
        let main = threads.first { $0.main }?.number ?? 0
        let pick = report.kind == .watchdog ? main : (triggered ?? main)
        if let thread = threads.first(where: { $0.number == pick }) {
            report.framesThread =
                "thread \(pick)" + (thread.main || pick == 0 && report.kind == .watchdog ? " (main thread)" : "")
                + (pick == triggered ? ", triggered" : "")
            report.frames = Array(thread.frames.prefix(8))
        }
        // A file lock held while suspended is what 0xdead10cc means; the evidence is a thread inside SQLite's
        // code, never a "SQLite page cache" region or libsqlite3 among the binary images.
        if report.terminationCode == 0xDEAD_10CC {
            report.fileLockEvidence = fileLock(
                threads.flatMap { thread in thread.frames.map { "thread \(thread.number): " + $0 } })
        }
        return report
    }

    /// `44 (1.4.4)` → `1.4.4 (44)`; a version without a build in parentheses stays as written.
    static func shortVersionFirst(_ text: String) -> String {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return text }
        let build = text[..<open].trimmingSpaces
        let short = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingSpaces
        guard !build.isEmpty, !short.isEmpty else { return text }
        return short + " (" + build + ")"
    }

    /// The `Thread N:` / `Thread N Crashed:` blocks of a legacy report: number, whether it is the main
    /// thread (`Dispatch queue: com.apple.main-thread` on its name line) or crashed, and its frames as
    /// `image symbol`.
    static func threadBlocks(_ bytes: ArraySlice<UInt8>) -> [(number: Int, main: Bool, crashed: Bool, frames: [String])]
    {
        var blocks: [(number: Int, main: Bool, crashed: Bool, frames: [String])] = []
        var mainThreads: Set<Int> = []
        var current: Int?
        // Lines split as bytes: `String.split(separator: "\n")` goes by `Character`, and `\r\n` is one, so a
        // report saved with CRLF line ends was one line, without its threads' frames.
        for raw in ReproText.lines(bytes) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
            if line.hasPrefix("Thread ") {
                let words = line.split(separator: " ")
                guard words.count >= 2 else { continue }
                let number = Int(words[1].trimming([":"]))
                if line.contains(" name:") {
                    if let number, line.contains("com.apple.main-thread") { mainThreads.insert(number) }
                    current = nil
                } else if let number, line.hasSuffix(":"), !line.contains("State") {
                    blocks.append((number, mainThreads.contains(number), line.contains("Crashed"), []))
                    current = blocks.count - 1
                } else {
                    current = nil
                }
                continue
            }
            guard let index = current else { continue }
            // `ReproText.tokens` splits at the same `Character`s from the bytes: splitting by `Character` was a large
            // share of reading a report.
            let words = ReproText.tokens(line)
            guard words.count >= 4, Int(words[0]) != nil, words[2].hasPrefix("0x") else {
                if line.trimmingSpaces.isEmpty { current = nil }
                continue
            }
            // `0   UIKit   0x00000001914ef130 UIApplicationMain + 208 (UIApplication.m:4089)`; unsymbolicated,
            // `0   libsystem_kernel.dylib   0x0000000196b98e7c 0x196b98000 + 3708`: the frame's own address and
            // its offset in the image, so that different frames never read the same.
            if words[3].hasPrefix("0x") {
                let offset = words.count >= 6 && words[4] == "+" ? " + " + words[5] : ""
                blocks[index].frames.append(String(words[1]) + " " + String(words[2]) + " (" + words[3] + offset + ")")
            } else {
                let symbolWords = words[3...].prefix { $0 != "+" }
                blocks[index].frames.append(String(words[1]) + " " + symbolWords.joined(separator: " "))
            }
        }
        return blocks
    }

    /// Whether the first 8 KiB look like a legacy crash report: an `Exception Type:` line (also macOS and
    /// fragments), `Incident Identifier:` with `Process:`, or the Console "Translated Report" banner.
    public static func isCrashText(_ bytes: ArraySlice<UInt8>) -> Bool {
        let fields = textFields(bytes.prefix(8192))
        return fields["Exception Type"] != nil
            || (fields["Incident Identifier"] != nil && fields["Process"] != nil)
            || fields["Translated Report (Full Report Below)"] != nil
    }

    /// Classifies by termination first, then exception: a watchdog code wins over `EXC_BAD_ACCESS (SIGKILL)`.
    public static func classify(_ report: CrashReport) -> CrashKind {
        let type = report.exceptionType?.uppercased()
        let signal = report.signal?.uppercased()
        let text = [report.exceptionSubtype, report.exceptionMessage, report.terminationDescription]
            .compactMap { $0?.lowercased() }.joined(separator: "\n")
        if report.terminationCode == 0x8BAD_F00D { return .watchdog }
        if type == "EXC_RESOURCE", report.exceptionSubtype?.uppercased().hasPrefix("MEMORY") == true {
            return text.contains("does not indicate a memory limit violation") ? .other : .memoryLimit
        }
        if report.terminationNamespace?.uppercased() == "JETSAM" || text.contains("per-process-limit") {
            return .memoryLimit
        }
        // A privacy violation (namespace TCC) is the system's decision, whatever signal delivered it.
        if report.terminationNamespace?.uppercased() == "TCC" { return .system }
        if signal == "SIGKILL" || killCodes.contains(report.terminationCode ?? 0) { return .system }
        if let signal, crashSignals.contains(signal) { return .crash }
        if let type, crashExceptionTypes.contains(type) { return .crash }
        return .other
    }

    private static let killCodes: Set<UInt64> = [0xDEAD_10CC, 0xC000_10FF, 0xBAD2_2222, 0x2BAD_45EC, 0xDEAD_FA11]
    private static let crashSignals: Set<String> = ["SIGSEGV", "SIGBUS", "SIGABRT", "SIGTRAP", "SIGILL", "SIGFPE"]
    private static let crashExceptionTypes: Set<String> = [
        "EXC_BAD_ACCESS", "EXC_BREAKPOINT", "EXC_BAD_INSTRUCTION", "EXC_ARITHMETIC", "EXC_GUARD",
    ]

    /// `Key: value` lines, first occurrence wins; a line without a value (the banner) maps to "".
    /// The header fields that open a report: a second one of any of them is a second report.
    private static let openingKeys: Set<String> = ["Incident Identifier", "Hardware Model", "Process", "OS Version"]

    /// Where a second report starts in legacy text: the line (1-based), its offset and its first field; nil when
    /// the text holds one report. A second `Incident Identifier:`, `Hardware Model:`, `Process:` or `OS Version:`
    /// at a line's start, after the first report's own, begins it.
    static func secondReport(in bytes: ArraySlice<UInt8>) -> (line: Int, offset: Int, what: String)? {
        var seen: Set<String> = []
        var start = bytes.startIndex
        var line = 0
        while start < bytes.endIndex {
            line += 1
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let text = bytes[start..<end]
            defer { start = end < bytes.endIndex ? end + 1 : end }
            guard let first = text.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z"),
                let colon = text.firstIndex(of: UInt8(ascii: ":")), colon - start <= 40
            else { continue }
            let key = String(decoding: text[..<colon], as: UTF8.self)
            guard Self.openingKeys.contains(key) else { continue }
            if seen.contains(key) {
                let value = String(decoding: text[(colon + 1)...], as: UTF8.self).trimmingSpaces
                return (line, start, key + ": " + String(value.prefix(60)))
            }
            seen.insert(key)
        }
        return nil
    }

    private static func textFields(_ bytes: ArraySlice<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[start..<end]
            start = end < bytes.endIndex ? end + 1 : end
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let first = line.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { continue }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else {
                if text.hasPrefix("Translated Report") { fields[text] = fields[text] ?? "" }
                continue
            }
            let key = String(text[..<colon])
            guard fields[key] == nil, key.count <= 40 else { continue }
            fields[key] = text[text.index(after: colon)...].trimmingSpaces
        }
        return fields
    }

    /// `EXC_BAD_ACCESS (SIGSEGV)` → (`EXC_BAD_ACCESS`, `SIGSEGV`); a bare `EXC_RESOURCE` has no signal.
    private static func splitExceptionType(_ text: String?) -> (String?, String?) {
        guard let text = nonEmpty(text) else { return (nil, nil) }
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else {
            return (text, nil)
        }
        let signal = text[text.index(after: open)..<close].trimmingSpaces
        return (nonEmpty(text[..<open].trimmingSpaces), nonEmpty(signal))
    }

    /// `Namespace SPRINGBOARD, Code 0x8badf00d` or the modern `SIGNAL 5 Trace/BPT trap: 5`.
    private static func parseTerminationReason(_ text: String?) -> (String?, UInt64?, String?) {
        guard let text = nonEmpty(text) else { return (nil, nil, nil) }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if words.first == "Namespace", words.count >= 2 {
            let namespace = words[1].trimming([","])
            // The word `Code` after the namespace (not a namespace that starts with it, like CODESIGNING).
            let codeIndex = words.indices.dropFirst(2).first { words[$0].trimming([","]).lowercased() == "code" }
            let code = codeIndex.flatMap { words.indices.contains($0 + 1) ? parseCode(String(words[$0 + 1])) : nil }
            return (namespace, code, nil)
        }
        if let namespace = words.first, words.count >= 2, let code = parseCode(String(words[1])) {
            let rest = words.dropFirst(2).joined(separator: " ")
            return (String(namespace), code, nonEmpty(rest))
        }
        return (nil, nil, text)
    }

    /// `0x8badf00d` (any case) or a decimal number.
    private static func parseCode(_ text: String) -> UInt64? {
        let lower = text.lowercased().trimming([",", ";"])
        if lower.hasPrefix("0x") { return UInt64(lower.dropFirst(2), radix: 16) }
        return UInt64(lower)
    }

    private static let signalNames = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 8: "SIGFPE", 9: "SIGKILL",
        10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 15: "SIGTERM",
    ]

    /// The Darwin signal name of a number.
    private static func signalName(number: UInt64) -> String? {
        number < 32 ? signalNames[Int(number)] : nil
    }

    /// The signal of a `strsignal()` text such as `Trace/BPT trap: 5`.
    private static func signalName(strsignal text: String) -> String? {
        guard let number = text.split(separator: ":").last.flatMap({ UInt64($0.trimmingSpaces) }) else { return nil }
        return signalName(number: number)
    }

    /// `OneMessenger [10627]` → `OneMessenger`.
    private static func trimmed(_ text: String?) -> String? { nonEmpty(text?.trimmingSpaces) }
}
