/// Reads crash-reporting SDKs' exports: Sentry events (as its API returns them, and in envelopes), SentryCrash and
/// KSCrash reports (with KSCrash 2.6's termination reports, and Embrace's, which are KSCrash's), Bugsnag events and
/// its last-launch state, Datadog RUM error events, and Crashlytics `.clsrecord` lines. Each event becomes an
/// `SDKEvent`: the claim as the SDK makes it, the time it rests on and what that time is, the app, the device and the
/// memory figures of the ended run. Every field is read defensively: a real export differs from the SDKs' fixtures,
/// and a field of another type is left out, never guessed.
public enum SDKReader {
    /// Whether a parsed JSON document is an SDK export, and its events; nil when it is none.
    public static func read(_ value: JSONValue) -> SDKExport? {
        if let events = events(in: value) { return SDKExport(events: events) }
        return nil
    }

    /// An export of JSON lines (Crashlytics `.clsrecord`, a Sentry envelope as sent), or one cut or redacted (a
    /// paste): nil when the bytes are none of these.
    public static func read(text bytes: [UInt8]) -> SDKExport? {
        if let export = readLines(bytes) { return export }
        guard mayBeExport(bytes), let salvaged = JSONSalvage.salvage(bytes), let events = events(in: salvaged.value)
        else { return nil }
        var export = SDKExport(events: events)
        if let path = salvaged.cutInside {
            export.cut =
                "the text ends before the JSON is whole"
                + (path.isEmpty ? "" : ", inside " + path.joined(separator: "."))
                + ": what is whole was read"
        } else {
            export.cut = "the text is not valid JSON: what is whole was read"
        }
        if salvaged.bareWords > 0 {
            export.diagnostics.append(
                "\(salvaged.bareWords) \(salvaged.bareWords == 1 ? "value is" : "values are") a bare word "
                    + "(a redaction), kept as written")
        }
        return export
    }

    /// Whether the first 64 KiB hold the keys of an SDK export: asked before salvaging text that failed to parse.
    public static func mayBeExport(_ bytes: [UInt8]) -> Bool {
        let window = bytes.prefix(65_536)
        func has(_ key: StaticString) -> Bool { ReproText.containsBytes(window, key) }
        return (has("\"event_id\"") && (has("\"platform\"") || has("\"exception\"") || has("\"sdk\"")))
            || (has("\"report\"") && has("\"crash\"") && has("\"system\""))
            || (has("\"severityReason\"") && has("\"exceptions\""))
            || (has("\"error\"") && has("\"category\"") && has("\"Watchdog Termination\""))
    }

    // MARK: - Which SDK

    private static func events(in value: JSONValue) -> [SDKEvent]? {
        guard case .object = value else { return nil }
        // A Datadog or Bugsnag API answer wraps its events.
        if let data = value["data"]?.elements, !data.isEmpty {
            let inner = data.compactMap { element -> JSONValue? in
                guard let attributes = element["attributes"] else { return nil }
                return attributes["attributes"] ?? attributes
            }
            let events = inner.compactMap(datadog)
            if !events.isEmpty { return events }
        }
        if let header = value["header"], let items = value["items"]?.elements,
            header["event_id"] != nil
                || header["sdk"] != nil
        {
            return envelope(
                header: header,
                payloads: items.compactMap { item in
                    item["header"]?["type"]?.string == "event" ? item["payload"] : nil
                })
        }
        if value["report"]?.members != nil, value["crash"]?.members != nil { return [kscrash(value)] }
        if value["apiKey"] != nil, let list = value["events"]?.elements {
            return list.compactMap { $0.members != nil ? bugsnag($0) : nil }
        }
        if isBugsnagEvent(value) { return [bugsnag(value)] }
        if isBugsnagState(value) { return [bugsnagState(value)] }
        if let event = datadog(value) { return [event] }
        if isSentryEvent(value) { return [sentry(value, pointer: "")] }
        return nil
    }

    private static func isSentryEvent(_ value: JSONValue) -> Bool {
        guard value["event_id"] != nil || value["eventID"] != nil else { return false }
        return value["platform"] != nil || value["exception"] != nil || value["sdk"] != nil
            || value["contexts"] != nil || value["level"] != nil
    }

    private static func isBugsnagEvent(_ value: JSONValue) -> Bool {
        value["exceptions"]?.elements != nil && (value["severityReason"] != nil || value["unhandled"] != nil)
    }

    private static func isBugsnagState(_ value: JSONValue) -> Bool {
        guard let app = value["app"], let device = value["device"] else { return false }
        return (app["machoUUID"] != nil || app["debuggerIsActive"] != nil) && device["bootTime"] != nil
    }

    // MARK: - Sentry

    private static func envelope(header: JSONValue, payloads: [JSONValue]) -> [SDKEvent] {
        payloads.map { payload in
            var event = sentry(payload, pointer: "")
            event.shape = "Sentry envelope event"
            if event.eventID == nil { event.eventID = header["event_id"]?.string }
            return event
        }
    }

    static func sentry(_ value: JSONValue, pointer: String) -> SDKEvent {
        let exceptions = value["exception"]?["values"]?.elements ?? value["exception"]?.elements ?? []
        let tags = sentryTags(value["tags"])
        var claim = SDKClaim.none
        var text: String?
        var claimPointer: String?
        for (index, exception) in exceptions.enumerated() {
            let type = exception["type"]?.string ?? ""
            let mechanism = exception["mechanism"]?["type"]?.string ?? ""
            let handled = exception["mechanism"]?["handled"]?.bool
            let found: SDKClaim? =
                switch (type, mechanism) {
                case ("WatchdogTermination", _), (_, "watchdog_termination"): .watchdog
                case ("OutOfMemory", _), (_, "out_of_memory"): .oom
                case ("App Hanging", _), ("AppHang", _), (_, "AppHang"), (_, "app_hang"): .appHang
                default: handled == false || value["level"]?.string == "fatal" ? .crash : nil
                }
            if let found {
                claim = found
                text = [type, exception["value"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: ": ")
                claimPointer = pointer + "/exception/values/\(index)"
                if found != .crash { break }
            }
        }
        if claim == .none || claim == .crash, let mechanism = tags["mechanism"] {
            if mechanism == "watchdog_termination" || mechanism == "out_of_memory" {
                claim = mechanism == "out_of_memory" ? .oom : .watchdog
                text = "mechanism " + mechanism
                claimPointer = pointer + "/tags"
            }
        }
        var event = SDKEvent(sdk: .sentry, shape: "Sentry event", claim: claim)
        event.claimText = text
        event.claimPointer = claimPointer
        event.eventID = value["event_id"]?.string ?? value["eventID"]?.string
        // Sentry's own snapshots write `<runtime-value>` where a value goes: a placeholder is no value.
        let contexts = withoutPlaceholders(value["contexts"])
        let app = contexts?["app"]
        let device = contexts?["device"]
        let os = contexts?["os"]
        event.app = app?["app_name"]?.string
        event.bundleID = app?["app_identifier"]?.string
        event.version = app?["app_version"]?.string
        event.build = app?["app_build"]?.string
        if let release = value["release"]?.string, event.bundleID == nil || event.version == nil {
            // `bundle@version+build`, as the Cocoa SDK names a release.
            let parts = release.split(separator: "@", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                if event.bundleID == nil { event.bundleID = parts[0] }
                let rest = parts[1].split(separator: "+", maxSplits: 1).map(String.init)
                if event.version == nil { event.version = rest.first }
                if event.build == nil, rest.count == 2 { event.build = rest[1] }
            }
        }
        event.os =
            [os?["name"]?.string, os?["version"]?.string].compactMap { $0 }.joined(separator: " ").nonEmpty
            ?? tags["os"]
        event.osBuild = os?["build"]?.string
        event.device = device?["model"]?.string ?? tags["device"]
        event.deviceID = app?["device_app_hash"]?.string
        let memoryClaim = claim.isMemoryClaim
        // A watchdog event is built on the next launch: its contexts are that launch's, not the ended run's.
        let base = pointer + "/contexts"
        addFigure(&event, "device total", device?["memory_size"], base + "/device/memory_size", ended: false)
        addFigure(&event, "device free", device?["free_memory"], base + "/device/free_memory", ended: !memoryClaim)
        addFigure(&event, "footprint", app?["app_memory"], base + "/app/app_memory", ended: !memoryClaim)
        if device?["simulator"]?.bool == true {
            event.contexts.append(SDKContext(.simulator, "device.simulator: true"))
        }
        if app?["in_foreground"]?.bool == false, !memoryClaim {
            event.contexts.append(SDKContext(.background, "app.in_foreground: false"))
        }
        let crumbs = value["breadcrumbs"]?["values"]?.elements ?? value["breadcrumbs"]?.elements ?? []
        if crumbs.contains(where: { $0["data"]?["action"]?.string == "LOW_MEMORY" }) { event.lowMemoryWarning = true }
        let timeKey = value["timestamp"] != nil ? "timestamp" : "datetime"
        let basis =
            memoryClaim
            ? "the last breadcrumb of the ended run, by which Sentry dates the event"
            : claim == .crash ? "the crash, as the SDK recorded it" : "the event"
        event.time = time(value[timeKey], basis: basis, pointer: pointer + "/" + timeKey)
        if memoryClaim {
            event.relaunch = time(
                app?["app_start_time"], basis: "the start of the launch that sent the event",
                pointer: base + "/app/app_start_time")
        }
        return event
    }

    /// `value` with every string of the form `<name>` (a snapshot's placeholder) left out.
    private static func withoutPlaceholders(_ value: JSONValue?) -> JSONValue? {
        switch value {
        case .object(let members)?:
            return .object(
                members.compactMap { member in
                    withoutPlaceholders(member.value).map { JSONMember(key: member.key, value: $0) }
                })
        case .string(let text)? where text.hasPrefix("<") && text.hasSuffix(">"): return nil
        default: return value
        }
    }

    /// Tags as Sentry writes them: an object, a list of `[key, value]` pairs, or of `{key, value}` objects.
    private static func sentryTags(_ value: JSONValue?) -> [String: String] {
        var tags: [String: String] = [:]
        if let members = value?.members {
            for member in members { if let text = member.value.string { tags[member.key] = text } }
        }
        for element in value?.elements ?? [] {
            if let pair = element.elements, pair.count == 2, let key = pair[0].string, let text = pair[1].string {
                tags[key] = text
            } else if let key = element["key"]?.string, let text = element["value"]?.string {
                tags[key] = text
            }
        }
        return tags
    }

    // MARK: - KSCrash, SentryCrash, Embrace

    static func kscrash(_ value: JSONValue) -> SDKEvent {
        let report = value["report"]
        let system = value["system"]
        let error = value["crash"]?["error"]
        let stats = system?["application_stats"]
        let isSentry = value["sentry_sdk_scope"] != nil || value["user"]?["context"] != nil
        let perceptible = stats?["user_perceptible"]?.bool
        let isEmbrace = !isSentry && (perceptible != nil || value["embrace"] != nil)
        let sdk: CrashSDK = isSentry ? .sentryCrash : isEmbrace ? .embrace : .kscrash
        let type = error?["type"]?.string ?? ""
        let reason = error?["termination_reason"]?.string
        let exitCode = error?["exit_reason"]?["code"]?.uint64
        let (claim, text, claimPointer) = kscrashClaim(
            type: type, reason: reason, exitCode: exitCode, error: error,
            embraceUnseen: sdk == .embrace && perceptible != true)
        let version = report?["version"]?.string
        let shapeName =
            sdk == .sentryCrash
            ? "SentryCrash report" : sdk == .embrace ? "Embrace termination report" : "KSCrash report"
        var event = SDKEvent(sdk: sdk, shape: shapeName + (version.map { " " + $0 } ?? ""), claim: claim)
        event.claimText = text
        event.claimPointer = claimPointer
        event.exitReasonCode = exitCode
        event.eventID = report?["id"]?.string
        kscrashFields(&event, system: system, report: report, error: error)
        kscrashContexts(&event, system: system, report: report, stats: stats, reason: reason)
        let basis: String =
            if type == "memory_termination" {
                "the last memory sample of the ended run, by which KSCrash dates the report"
            } else if type == "termination" || type.isEmpty {
                "the report's time: the SDK's last saved state of the ended run, not the kill"
            } else {
                "the crash, as the SDK recorded it in the process"
            }
        event.time = time(report?["timestamp"], basis: basis, pointer: "/report/timestamp")
        if isSentry {
            let context = value["user"]?["context"]
            if let app = context?["app"] {
                event.app = app["app_name"]?.string ?? event.app
                event.bundleID = app["app_identifier"]?.string ?? event.bundleID
                event.version = app["app_version"]?.string ?? event.version
            }
            if context?["device"]?["simulator"]?.bool == true,
                !event.contexts.contains(where: { $0.kind == .simulator })
            {
                event.contexts.append(SDKContext(.simulator, "user.context.device.simulator: true"))
            }
        }
        return event
    }

    /// A KSCrash report's claim from its error's type, termination reason and exit reason, the words it rests on
    /// and their place. `embraceUnseen`: an Embrace report of a termination the user could not have seen.
    static func kscrashClaim(type: String, reason: String?, exitCode: UInt64?, error: JSONValue?, embraceUnseen: Bool)
        -> (SDKClaim, String, String)
    {
        var claim: SDKClaim
        var text: String
        var claimPointer = "/crash/error/type"
        switch type {
        case "memory_termination":
            claim = .oom
            text = "memory_termination"
        case "termination":
            text = "termination_reason " + (reason ?? "absent")
            claimPointer = "/crash/error/termination_reason"
            switch reason {
            case "memory_limit"?, "memory_pressure"?:
                // Embrace promotes a memory termination to an OOM only when the user could have seen it.
                claim = embraceUnseen ? .none : .oom
                if embraceUnseen { text += ", not user-perceptible: Embrace does not call it out of memory" }
            case "unexplained"?: claim = .unexplained
            case "cpu"?, "thermal"?, "low_battery"?, "cpu_limit"?, "thermal_critical"?: claim = .otherTermination
            default: claim = .none
            }
        case "deadlock":
            claim = .appHang
            text = "deadlock"
        case "":
            claim = .none
            text = "no crash.error.type"
        default:
            claim = .crash
            let signal = error?["signal"]?["name"]?.string
            let mach = error?["mach"]?["exception_name"]?.string
            text = [type, mach, signal].compactMap { $0 }.joined(separator: " ")
        }
        if let exitCode {
            if exitCode == 0x8BAD_F00D {
                claim = .watchdog
                text += ", exit reason 0x8badf00d"
                claimPointer = "/crash/error/exit_reason/code"
            } else {
                text += ", exit reason 0x" + String(exitCode, radix: 16)
            }
        }
        return (claim, text, claimPointer)
    }

    /// The app, OS and device a KSCrash report names, and the memory figures of the ended run.
    static func kscrashFields(_ event: inout SDKEvent, system: JSONValue?, report: JSONValue?, error: JSONValue?) {
        event.app =
            system?["CFBundleName"]?.string ?? system?["CFBundleExecutable"]?.string
            ?? report?["process_name"]?.string.flatMap(\.nonEmpty)
        event.bundleID = system?["CFBundleIdentifier"]?.string
        event.version = system?["CFBundleShortVersionString"]?.string
        event.build = system?["CFBundleVersion"]?.string
        event.os =
            [system?["system_name"]?.string, system?["system_version"]?.string].compactMap { $0 }
            .joined(separator: " ").nonEmpty
        event.osBuild = system?["os_version"]?.string
        event.device = system?["machine"]?.string
        event.deviceID = system?["device_app_hash"]?.string
        event.pid = system?["process_id"]?.int
        let memory = error?["memory_termination"] ?? system?["app_memory"]
        let memoryPointer =
            error?["memory_termination"] != nil ? "/crash/error/memory_termination" : "/system/app_memory"
        addFigure(&event, "footprint", memory?["memory_footprint"], memoryPointer + "/memory_footprint", ended: true)
        addFigure(&event, "limit", memory?["memory_limit"], memoryPointer + "/memory_limit", ended: true)
        addFigure(&event, "remaining", memory?["memory_remaining"], memoryPointer + "/memory_remaining", ended: true)
        addFigure(&event, "device total", system?["memory"]?["size"], "/system/memory/size", ended: false)
        addFigure(&event, "device free", system?["memory"]?["free"], "/system/memory/free", ended: true)
        event.memoryLevel = memory?["memory_level"]?.string
        event.memoryPressure = memory?["memory_pressure"]?.string
    }

    /// The known false-positive classes a KSCrash report's own fields name: a simulator, an xctest host, the
    /// background, an upgrade, a reboot.
    static func kscrashContexts(
        _ event: inout SDKEvent, system: JSONValue?, report: JSONValue?, stats: JSONValue?, reason: String?
    ) {
        if system?["model"]?.string == "simulator" || system?["build_type"]?.string == "simulator" {
            event.contexts.append(
                SDKContext(
                    .simulator,
                    system?["model"]?.string == "simulator" ? "system.model: simulator" : "system.build_type: simulator"
                ))
        }
        let process = system?["process_name"]?.string ?? report?["process_name"]?.string
        if process == "xctest" || system?["CFBundleIdentifier"]?.string == "com.apple.dt.xctest.tool" {
            event.contexts.append(SDKContext(.automatedTest, "the process is xctest"))
        }
        if stats?["application_in_foreground"]?.bool == false {
            event.contexts.append(SDKContext(.background, "application_stats.application_in_foreground: false"))
        }
        if let reason, reason == "os_upgrade" || reason == "app_upgrade" {
            event.contexts.append(SDKContext(.upgrade, "termination_reason: " + reason))
        }
        if reason == "reboot" { event.contexts.append(SDKContext(.reboot, "termination_reason: reboot")) }
    }

    // MARK: - Bugsnag

    static func bugsnag(_ value: JSONValue) -> SDKEvent {
        let exception = value["exceptions"]?[0]
        let errorClass = exception?["errorClass"]?.string ?? ""
        let reasonType = value["severityReason"]?["type"]?.string ?? ""
        let claim: SDKClaim =
            if errorClass == "Out Of Memory" || reasonType == "outOfMemory" {
                .oom
            } else if errorClass == "Thermal Kill" || reasonType == "thermalKill" {
                .otherTermination
            } else if errorClass == "App Hang" || reasonType == "appHang" {
                .appHang
            } else if value["unhandled"]?.bool == true {
                .crash
            } else {
                .none
            }
        var event = SDKEvent(sdk: .bugsnag, shape: "Bugsnag event", claim: claim)
        event.claimText =
            [errorClass, exception?["message"]?.string].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: ": ").nonEmpty ?? (reasonType.isEmpty ? nil : "severityReason " + reasonType)
        event.claimPointer = "/exceptions/0/errorClass"
        event.eventID = value["id"]?.string ?? value["eventId"]?.string
        let app = value["app"]
        let device = value["device"]
        let meta = value["metaData"] ?? value["metadata"]
        event.app = meta?["app"]?["name"]?.string ?? app?["name"]?.string
        event.bundleID = app?["id"]?.string ?? app?["bundleId"]?.string
        event.version = app?["version"]?.string
        event.build = app?["bundleVersion"]?.string
        event.os =
            [device?["osName"]?.string, device?["osVersion"]?.string].compactMap { $0 }.joined(separator: " ")
            .nonEmpty
        event.osBuild = device?["runtimeVersions"]?["osBuild"]?.string ?? device?["osBuild"]?.string
        event.device = device?["model"]?.string
        event.deviceID = device?["id"]?.string
        // An OOM event is built on the next launch from the last run's context: its figures are that run's.
        addFigure(&event, "footprint", meta?["app"]?["memoryUsage"], "/metaData/app/memoryUsage", ended: true)
        addFigure(&event, "limit", meta?["app"]?["memoryLimit"], "/metaData/app/memoryLimit", ended: true)
        addFigure(&event, "remaining", meta?["app"]?["freeMemory"], "/metaData/app/freeMemory", ended: true)
        addFigure(&event, "device free", device?["freeMemory"], "/device/freeMemory", ended: true)
        addFigure(&event, "device total", device?["totalMemory"], "/device/totalMemory", ended: false)
        if let warning = meta?["device"]?["lowMemoryWarning"]?.bool { event.lowMemoryWarning = warning }
        bugsnagContexts(&event, app: app, device: device, meta: meta)
        let basis =
            claim == .oom || claim == .otherTermination
            ? "the last update of the ended run's saved state, device.time" : "the event's device time"
        event.time = time(device?["time"], basis: basis, pointer: "/device/time")
        return event
    }

    /// Bugsnag's last-launch state file: no claim, but the fields its OOM rule reads.
    static func bugsnagState(_ value: JSONValue) -> SDKEvent {
        let app = value["app"]
        let device = value["device"]
        var event = SDKEvent(sdk: .bugsnag, shape: "Bugsnag last-launch state", claim: .none)
        event.claimText = "a state file: Bugsnag builds an event from it on the next launch"
        event.app = app?["name"]?.string
        event.bundleID = app?["id"]?.string
        event.version = app?["version"]?.string
        event.build = app?["bundleVersion"]?.string
        event.os =
            [device?["osName"]?.string, device?["osVersion"]?.string].compactMap { $0 }.joined(separator: " ")
            .nonEmpty
        event.osBuild = device?["osBuild"]?.string ?? device?["runtimeVersions"]?["osBuild"]?.string
        event.device = device?["model"]?.string
        event.deviceID = device?["id"]?.string
        addFigure(&event, "device total", device?["totalMemory"], "/device/totalMemory", ended: false)
        bugsnagContexts(&event, app: app, device: device, meta: nil)
        return event
    }

    private static func bugsnagContexts(_ event: inout SDKEvent, app: JSONValue?, device: JSONValue?, meta: JSONValue?)
    {
        for key in ["isDebuggerAttached", "debuggerIsActive"] {
            if app?[key]?.bool == true || meta?["app"]?[key]?.bool == true {
                event.contexts.append(SDKContext(.debugger, "app.\(key): true"))
                break
            }
        }
        if device?["simulator"]?.bool == true {
            event.contexts.append(SDKContext(.simulator, "device.simulator: true"))
        } else if device?["modelNumber"]?.string == "simulator" {
            event.contexts.append(SDKContext(.simulator, "device.modelNumber: simulator"))
        }
        if app?["inForeground"]?.bool == false {
            event.contexts.append(SDKContext(.background, "app.inForeground: false"))
        }
    }

    // MARK: - Datadog

    static func datadog(_ value: JSONValue) -> SDKEvent? {
        guard value["type"]?.string == "error", let error = value["error"], error.members != nil,
            value["application"] != nil || value["session"] != nil || value["_dd"] != nil
        else { return nil }
        let category = error["category"]?.string ?? ""
        let type = error["type"]?.string ?? ""
        let claim: SDKClaim =
            if category == "Watchdog Termination" || type == "WatchdogTermination" {
                .watchdog
            } else if category == "App Hang" || type == "AppHang" {
                .appHang
            } else if error["is_crash"]?.bool == true || category == "Exception" {
                .crash
            } else {
                .none
            }
        var event = SDKEvent(sdk: .datadog, shape: "Datadog RUM error event", claim: claim)
        event.claimText =
            [category.nonEmpty.map { "category " + $0 }, error["message"]?.string].compactMap { $0 }
            .joined(separator: ": ").nonEmpty
        event.claimPointer = "/error/category"
        event.eventID = error["id"]?.string ?? value["id"]?.string
        event.app = value["application"]?["name"]?.string ?? value["service"]?.string
        event.bundleID = value["application"]?["bundle_id"]?.string
        event.version = value["version"]?.string
        event.build = value["build_version"]?.string
        event.os =
            [value["os"]?["name"]?.string, value["os"]?["version"]?.string].compactMap { $0 }
            .joined(separator: " ").nonEmpty
        event.osBuild = value["os"]?["build"]?.string
        event.device = value["device"]?["model"]?.string
        addFigure(&event, "view peak", value["view"]?["memory_max"], "/view/memory_max", ended: true)
        addFigure(&event, "view average", value["view"]?["memory_average"], "/view/memory_average", ended: true)
        if value["session"]?["type"]?.string == "synthetics" {
            event.contexts.append(SDKContext(.automatedTest, "session.type: synthetics"))
        }
        if value["device"]?["type"]?.string == "simulator" || value["device"]?["model"]?.string == "Simulator" {
            event.contexts.append(SDKContext(.simulator, "device: simulator"))
        }
        let basis =
            claim == .watchdog
            ? "the SDK's last file write before the next launch, by which Datadog dates the error" : "the error"
        event.time = time(value["date"], basis: basis, pointer: "/date", milliseconds: true)
        return event
    }

    // MARK: - JSON lines: Crashlytics, Sentry envelopes

    /// A file of one JSON object a line: a Crashlytics `.clsrecord`, or a Sentry envelope as sent (a header line,
    /// then for each item a header line and its payload).
    private static func readLines(_ bytes: [UInt8]) -> SDKExport? {
        guard let first = ReproText.lines(bytes.prefix(65_536)).first(where: { !ReproText.trimmed($0).isEmpty }),
            let head = try? JSON.parse(first), head.members != nil
        else { return nil }
        if head["event_id"] != nil || head["dsn"] != nil || (head["sdk"] != nil && head["sent_at"] != nil) {
            return sentryEnvelope(bytes)
        }
        let crashlyticsKeys: Set<String> = [
            "identity", "host", "application", "executable", "signal", "process_stats", "storage", "exception",
            "mach_exception",
        ]
        guard let key = head.members?.first?.key, crashlyticsKeys.contains(key) else { return nil }
        var records: [String: JSONValue] = [:]
        var unreadable = 0
        for line in ReproText.lines(bytes) where !ReproText.trimmed(line).isEmpty {
            guard let value = try? JSON.parse(line), let members = value.members else {
                unreadable += 1
                continue
            }
            for member in members where records[member.key] == nil { records[member.key] = member.value }
        }
        var export = SDKExport(events: [crashlytics(records)])
        if unreadable > 0 {
            export.diagnostics.append("\(unreadable) \(unreadable == 1 ? "line is" : "lines are") not a JSON object")
        }
        return export
    }

    static func crashlytics(_ records: [String: JSONValue]) -> SDKEvent {
        let signal = records["signal"]
        let exception = records["exception"] ?? records["mach_exception"]
        let claim: SDKClaim = signal != nil || exception != nil ? .crash : .none
        let shape = signal != nil ? "Crashlytics signal record" : "Crashlytics report metadata"
        var event = SDKEvent(sdk: .crashlytics, shape: shape, claim: claim)
        event.claimText =
            signal.map { "signal " + ($0["name"]?.string ?? $0["number"]?.int.map(String.init) ?? "?") }
            ?? exception.map { _ in "an exception" }
        event.claimPointer = signal != nil ? "signal" : nil
        let identity = records["identity"]
        let host = records["host"]
        let application = records["application"]
        event.eventID = identity?["session_id"]?.string
        event.bundleID = application?["bundle_id"]?.string
        event.version = application?["display_version"]?.string
        event.build = application?["build_version"]?.string
        event.os =
            [host?["platform"]?.string.map { $0 == "ios" ? "iOS" : $0 }, host?["os_display_version"]?.string]
            .compactMap { $0 }.joined(separator: " ").nonEmpty
        event.osBuild = host?["os_build_version"]?.string
        event.device = host?["model"]?.string
        event.deviceID = identity?["install_id"]?.string
        if let model = host?["model"]?.string, model.contains("Simulator") {
            event.contexts.append(SDKContext(.simulator, "host.model: " + model))
        }
        let stats = records["process_stats"]
        addFigure(&event, "resident", stats?["resident"], "process_stats/resident", ended: true)
        addFigure(&event, "device free", stats?["freeMem"], "process_stats/freeMem", ended: true)
        if let signal {
            event.time = time(signal["time"], basis: "the signal, as the SDK recorded it", pointer: "signal/time")
        } else {
            event.time = time(identity?["started_at"], basis: "the session's start", pointer: "identity/started_at")
        }
        return event
    }

    private static func sentryEnvelope(_ bytes: [UInt8]) -> SDKExport? {
        var offset = 0
        func nextLine() -> [UInt8]? {
            guard offset < bytes.count else { return nil }
            let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
            defer { offset = min(bytes.count, end + 1) }
            return Array(bytes[offset..<end])
        }
        guard let headLine = nextLine(), let header = try? JSON.parse(headLine) else { return nil }
        var payloads: [JSONValue] = []
        var unreadable = 0
        while let itemLine = nextLine() {
            guard itemLine.contains(where: { !JSON.isWhitespace($0) }) else { continue }
            guard let item = try? JSON.parse(itemLine) else {
                unreadable += 1
                continue
            }
            let payload: [UInt8]
            // A payload of `length` bytes ends the line (or the file); one whose length does not fit (a copy whose
            // line ends changed) is read to its line end instead.
            if let length = item["length"]?.int, length >= 0, length <= bytes.count - offset,
                offset + length == bytes.count || bytes[offset + length] == 0x0A
                    || (bytes[offset + length] == 0x0D && offset + length + 1 < bytes.count
                        && bytes[offset + length + 1] == 0x0A)
            {
                payload = Array(bytes[offset..<(offset + length)])
                offset += length
                if offset < bytes.count, bytes[offset] == 0x0D { offset += 1 }
                if offset < bytes.count, bytes[offset] == 0x0A { offset += 1 }
            } else {
                payload = nextLine() ?? []
            }
            guard item["type"]?.string == "event" else { continue }
            guard let value = try? JSON.parse(payload) else {
                unreadable += 1
                continue
            }
            payloads.append(value)
        }
        var export = SDKExport(events: envelope(header: header, payloads: payloads))
        if unreadable > 0 {
            export.diagnostics.append(
                "\(unreadable) envelope \(unreadable == 1 ? "item is" : "items are") not valid JSON")
        }
        return export.events.isEmpty && unreadable == 0 ? nil : export
    }

    // MARK: - Values

    /// A memory figure in bytes, when the value is a non-negative integer (a placeholder or text is left out).
    private static func addFigure(
        _ event: inout SDKEvent, _ name: String, _ value: JSONValue?, _ pointer: String, ended: Bool
    ) {
        guard let bytes = value?.uint64 ?? value?.double.flatMap({ $0 >= 0 && $0 < 1e19 ? UInt64($0) : nil }) else {
            return
        }
        event.memory.append(SDKMemoryFigure(name: name, bytes: bytes, pointer: pointer, ofEndedRun: ended))
    }

    /// A time as an SDK writes it: an ISO 8601 string (with or without a zone), or a number of Unix seconds,
    /// milliseconds or microseconds (told apart by size), or of seconds since 2001 (Bugsnag's stored clock).
    static func time(_ value: JSONValue?, basis: String, pointer: String, milliseconds: Bool = false) -> SDKTime? {
        if let text = value?.string {
            guard !text.isEmpty else { return nil }
            if let number = Double(text), text.first?.isNumber == true {
                return numeric(number, text: text, basis: basis, pointer: pointer)
            }
            guard AppleDate.parse(text) != nil else {
                return SDKTime(text: text, utc: nil, clock: "text that is no time", basis: basis, pointer: pointer)
            }
            guard AppleDate.hasZone(text) else {
                return SDKTime(text: text, utc: nil, clock: "ISO 8601 without a zone", basis: basis, pointer: pointer)
            }
            let utc = AppleDate.parse(text)
            let clock = text.hasSuffix("Z") ? "ISO 8601 UTC" : "ISO 8601 with its offset"
            return SDKTime(text: text, utc: utc, clock: clock, basis: basis, pointer: pointer)
        }
        guard case .number(let text)? = value, let number = Double(text), number.isFinite, number > 0 else {
            return nil
        }
        if milliseconds {
            return SDKTime(text: text, utc: number / 1000, clock: "Unix milliseconds", basis: basis, pointer: pointer)
        }
        return numeric(number, text: text, basis: basis, pointer: pointer)
    }

    private static func numeric(_ number: Double, text: String, basis: String, pointer: String) -> SDKTime {
        let (utc, clock): (Double, String) =
            if number >= 1e14 {
                (number / 1_000_000, "Unix microseconds")
            } else if number >= 1e11 {
                (number / 1000, "Unix milliseconds")
            } else if number < 9e8 {
                (number + 978_307_200, "seconds since 2001-01-01")
            } else {
                (number, "Unix seconds")
            }
        return SDKTime(text: text, utc: utc, clock: clock, basis: basis, pointer: pointer)
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
