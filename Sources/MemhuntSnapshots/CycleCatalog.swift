import MemhuntFormats

/// The patterns memhunt names in a `leaks` tree, sorted by id (`CyclePatternTests` guards the order and runs
/// every example), and the cycles known to be Apple's own.
public enum CycleCatalog {
    public static let patterns: [CyclePattern] = [
        CyclePattern(
            id: "block.self-capture-stored", title: "a block stored on an object captures that object",
            ways: [.init(.high, [.cycle, .node(.regex("^__NS(Malloc|Stack)Block__$")), .field(.exact("[capture]"))])],
            fix:
                "Capture the object weakly in the block (__weak typeof(self) weakSelf), or set the block to nil once it has run.",
            before: "self.handler = ^{ [self finish]; };",
            after: "__weak typeof(self) weakSelf = self;\nself.handler = ^{ [weakSelf finish]; };",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (96 bytes) ROOT CYCLE: <Uploader 0x1> [48]
                       1 (48 bytes) __strong _completion --> ROOT CYCLE: <__NSMallocBlock__ 0x2> [48]  Uploader  __22-[Uploader start]_block_invoke
                          __strong [capture] --> CYCLE BACK TO <Uploader 0x1> [48]
                    """),
                .quiet(
                    """
                    2 (96 bytes) ROOT CYCLE: <Uploader 0x1> [48]
                       1 (48 bytes) __strong _queue --> ROOT CYCLE: <Worker 0x2> [48]
                          __strong owner --> CYCLE BACK TO <Uploader 0x1> [48]
                    """),
            ], general: true),
        CyclePattern(
            id: "closure.self-capture-stored", title: "a closure stored on an object captures that object",
            ways: [
                .init(.high, [.cycle, .node(.regex("^(Swift )?[Cc]losure context$")), .appClass]),
                // `leaks` may fold the context into the label (`onClose.context`): the reference names it.
                .init(
                    .medium, [.cycle, .field(.regex("(?i)(closure|context|callback|handler|completion)")), .appClass]),
                // A closure that captures only `self` can use `self` as its context: `leaks` then shows the object
                // alone, with nothing under it (memhunt's reading of a real capture, not Apple's statement).
                .init(.low, [.lone, .appClass]),
            ],
            fix: "Capture self weakly ([weak self]) in the stored closure, or set the property to nil when it is done.",
            before: "callback = { self.number = $0 }",
            after: "callback = { [weak self] in self?.number = $0 }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (80 bytes) ROOT CYCLE: <ProfileModel 0x1> [48]
                       1 (32 bytes) __strong onChange --> ROOT CYCLE: <Closure context 0x2> [32]
                          __strong self --> CYCLE BACK TO <ProfileModel 0x1> [48]
                    """),
                .raises("1 (48 bytes) ROOT LEAK: <ProfileModel 0x1> [48]"),
                .quiet("1 (48 bytes) ROOT LEAK: <NSMutableDictionary 0x1> [48]"),
            ], general: true),
        CyclePattern(
            id: "combine.sink-stored-on-self", title: "a Combine subscription stored on an object captures it",
            ways: [
                .init(
                    .high,
                    [.cycle, .node(.regex("^(Combine\\.)?(Subscribers\\.(Sink|Assign)|AnyCancellable)")), .appClass])
            ],
            fix: "Use [weak self] in sink, or assign(to: &$property) instead of assign(to:on: self).",
            before: "publisher.sink { self.items = $0 }.store(in: &cancellables)",
            after: "publisher.sink { [weak self] in self?.items = $0 }.store(in: &cancellables)",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    3 (160 bytes) ROOT CYCLE: <FeedModel 0x1> [48]
                       2 (112 bytes) __strong cancellable --> ROOT CYCLE: <Combine.AnyCancellable 0x2> [32]
                          1 (80 bytes) ROOT CYCLE: <Closure context 0x3> [80]
                             __strong self --> CYCLE BACK TO <FeedModel 0x1> [48]
                    """),
                .quiet(
                    """
                    2 (80 bytes) ROOT CYCLE: <FeedModel 0x1> [48]
                       1 (32 bytes) __strong store --> ROOT CYCLE: <FeedStore 0x2> [32]
                          __strong model --> CYCLE BACK TO <FeedModel 0x1> [48]
                    """),
            ]),
        CyclePattern(
            id: "concurrency.task-self", title: "a task or an async loop stored on an object holds it",
            ways: [
                .init(.medium, [.cycle, .node(.regex("^(_Concurrency\\.|Swift\\.Task)|AsyncStream|Task<")), .appClass])
            ],
            fix: "Keep the Task handle and cancel() it when the owner goes; capture only what the loop needs.",
            before: "task = Task { for await value in stream { self.apply(value) } }",
            after:
                "task = Task { [weak self] in for await value in stream { self?.apply(value) } }\n// and task?.cancel() on teardown",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (96 bytes) ROOT CYCLE: <LiveModel 0x1> [48]
                       1 (48 bytes) __strong task --> ROOT CYCLE: <_Concurrency.AsyncStream<Swift.Int>._Storage 0x2> [48]
                          __strong self --> CYCLE BACK TO <LiveModel 0x1> [48]
                    """),
                .quiet(
                    """
                    2 (96 bytes) ROOT CYCLE: <_Concurrency.AsyncStream<Swift.Int>._Storage 0x1> [48]
                       1 (48 bytes) __strong storage --> ROOT CYCLE: <NSMutableArray 0x2> [48]
                          __strong owner --> CYCLE BACK TO <_Concurrency.AsyncStream<Swift.Int>._Storage 0x1> [48]
                    """),
            ]),
        CyclePattern(
            id: "delegate.strong", title: "a delegate or data source held strongly",
            ways: [.init(.high, [.cycle, .field(.regex("^_?([Dd]elegate|[Dd]ataSource)$")), .appClass])],
            fix: "Declare the delegate weak: weak var delegate: …Delegate?",
            before: "var delegate: LoaderDelegate?",
            after: "weak var delegate: LoaderDelegate?",
            swiftLint: "weak_delegate",
            examples: [
                .raises(
                    """
                    2 (64 bytes) ROOT CYCLE: <ProfileViewController 0x1> [32]
                       1 (32 bytes) __strong loader --> ROOT CYCLE: <ProfileLoader 0x2> [32]
                          __strong delegate --> CYCLE BACK TO <ProfileViewController 0x1> [32]
                    """),
                .quiet(
                    """
                    2 (64 bytes) ROOT CYCLE: <ProfileViewController 0x1> [32]
                       1 (32 bytes) __strong loader --> ROOT CYCLE: <ProfileLoader 0x2> [32]
                          __strong screen --> CYCLE BACK TO <ProfileViewController 0x1> [32]
                    """),
            ]),
        CyclePattern(
            id: "dispatch.source-handler", title: "a dispatch source's handler captures the object that keeps it",
            ways: [.init(.medium, [.cycle, .node(.regex("^OS_dispatch_source|dispatch_source")), .appClass])],
            fix: "Capture [weak self] in the event handler, and cancel() the source on teardown.",
            before: "source.setEventHandler { self.tick() }",
            after: "source.setEventHandler { [weak self] in self?.tick() }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    3 (208 bytes) ROOT CYCLE: <Poller 0x1> [48]
                       2 (160 bytes) __strong source --> ROOT CYCLE: <OS_dispatch_source 0x2> [128]
                          1 (32 bytes) ROOT CYCLE: <Closure context 0x3> [32]
                             __strong self --> CYCLE BACK TO <Poller 0x1> [48]
                    """),
                .quiet("1 (128 bytes) ROOT LEAK: <OS_dispatch_source 0x1> [128]"),
            ]),
        CyclePattern(
            id: "displaylink.target-retain", title: "a CADisplayLink retains its target",
            ways: [.init(.high, [.cycle, .node(.prefix("CADisplayLink")), .appClass])],
            fix: "Give the display link a weak proxy as its target, and invalidate() it on teardown (not in deinit).",
            before: "link = CADisplayLink(target: self, selector: #selector(step))",
            after:
                "link = CADisplayLink(target: WeakProxy(self), selector: #selector(step))\n// link.invalidate() on teardown",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (112 bytes) ROOT CYCLE: <Animator 0x1> [48]
                       1 (64 bytes) __strong link --> ROOT CYCLE: <CADisplayLink 0x2> [64]
                          __strong _target --> CYCLE BACK TO <Animator 0x1> [48]
                    """),
                .quiet(
                    """
                    2 (112 bytes) ROOT CYCLE: <Animator 0x1> [48]
                       1 (64 bytes) __strong link --> ROOT CYCLE: <Clock 0x2> [64]
                          __strong target --> CYCLE BACK TO <Animator 0x1> [48]
                    """),
            ]),
        CyclePattern(
            id: "kvo.observation-token", title: "a key-value observation token held on the object it observes for",
            ways: [.init(.high, [.cycle, .node(.regex("NSKeyValueObservation|NSKeyValueObservance")), .appClass])],
            fix: "Capture [weak self] in the change handler, and invalidate() the token on teardown.",
            before: "token = player.observe(\\.rate) { _, _ in self.update() }",
            after: "token = player.observe(\\.rate) { [weak self] _, _ in self?.update() }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    3 (176 bytes) ROOT CYCLE: <PlayerModel 0x1> [48]
                       2 (128 bytes) __strong token --> ROOT CYCLE: <Foundation._KeyValueCodingAndObservingSubscripts.NSKeyValueObservation 0x2> [96]
                          1 (32 bytes) ROOT CYCLE: <Closure context 0x3> [32]
                             __strong self --> CYCLE BACK TO <PlayerModel 0x1> [48]
                    """),
                .quiet("1 (96 bytes) ROOT LEAK: <NSKeyValueObservance 0x1> [96]"),
            ]),
        CyclePattern(
            id: "notification.block-observer", title: "a block observer of NotificationCenter captures its owner",
            ways: [
                .init(
                    .medium,
                    [.cycle, .node(.regex("^(__NSObserver|_NSNotificationObserver)$|NotificationCenter")), .appClass])
            ],
            fix:
                "Capture [weak self] in the observer block, and removeObserver(token) when done (or use the selector form).",
            before: "token = center.addObserver(forName: .x, object: nil, queue: .main) { _ in self.reload() }",
            after:
                "token = center.addObserver(forName: .x, object: nil, queue: .main) { [weak self] _ in self?.reload() }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    3 (176 bytes) ROOT CYCLE: <InboxModel 0x1> [48]
                       2 (128 bytes) __strong token --> ROOT CYCLE: <__NSObserver 0x2> [64]
                          1 (64 bytes) ROOT CYCLE: <__NSMallocBlock__ 0x3> [32]
                             __strong [capture] --> CYCLE BACK TO <InboxModel 0x1> [48]
                    """),
                .quiet(
                    """
                    2 (112 bytes) ROOT CYCLE: <InboxModel 0x1> [48]
                       1 (64 bytes) __strong observer --> ROOT CYCLE: <InboxObserver 0x2> [64]
                          __strong model --> CYCLE BACK TO <InboxModel 0x1> [48]
                    """),
            ]),
        CyclePattern(
            id: "object.strong-back-reference", title: "objects of the app hold each other strongly",
            ways: [.init(.high, [.cycle, .onlyAppClasses])],
            fix: "Make the reference back to the owner weak (or unowned); in a linked list, make prev weak.",
            before: "class Person { var apartment: Apartment? }",
            after: "class Person { weak var apartment: Apartment? }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (64 bytes) ROOT CYCLE: <Library 0x1> [32]
                       1 (32 bytes) book --> ROOT CYCLE: <Book 0x2> [32]
                          library --> CYCLE BACK TO <Library 0x1> [32]
                    """),
                .quiet(
                    """
                    2 (64 bytes) ROOT CYCLE: <Library 0x1> [32]
                       1 (32 bytes) __strong items --> ROOT CYCLE: <NSMutableArray 0x2> [32]
                          __strong owner --> CYCLE BACK TO <Library 0x1> [32]
                    """),
            ], general: true),
        CyclePattern(
            id: "swiftui.observable-cycle", title: "a SwiftUI model captured by what it stores",
            ways: [
                .init(
                    .medium,
                    [.cycle, .node(.regex("^SwiftUI\\.|ObservationRegistrar|AnyLocationBase|LocationBox")), .appClass])
            ],
            fix:
                "Capture the model weakly (or pass it as a parameter) in closures it keeps; move work to .task or .onChange.",
            before: "model.onUpdate = { model.refresh() }",
            after: "model.onUpdate = { [weak model] in model?.refresh() }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (128 bytes) ROOT CYCLE: <CartModel 0x1> [64]
                       1 (64 bytes) __strong _$observationRegistrar --> ROOT CYCLE: <Observation.ObservationRegistrar.Extent 0x2> [64]
                          __strong model --> CYCLE BACK TO <CartModel 0x1> [64]
                    """),
                .quiet(
                    """
                    1 (64 bytes) ROOT CYCLE: <Swift._DictionaryStorage<SwiftUI.AnyHashable2, SwiftUI.WeakBox<SwiftUI.AnyLocationBase>> 0x1> [64]
                       _rawValues --> CYCLE BACK TO <Swift._DictionaryStorage<SwiftUI.AnyHashable2, SwiftUI.WeakBox<SwiftUI.AnyLocationBase>> 0x1> [64]
                    """),
            ]),
        CyclePattern(
            id: "timer.target-retain", title: "a Timer retains its target",
            ways: [
                .init(
                    .high,
                    [.cycle, .node(.regex("^(__NSCFTimer|NSTimer|_NSTimerBlockTarget|Foundation\\.Timer)")), .appClass])
            ],
            fix: "Use a block-based timer with [weak self], and invalidate() it on teardown (deinit never runs).",
            before:
                "timer = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)",
            after: "timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.tick() }",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (112 bytes) ROOT CYCLE: <Countdown 0x1> [48]
                       1 (64 bytes) __strong timer --> ROOT CYCLE: <__NSCFTimer 0x2> [64]
                          __strong target --> CYCLE BACK TO <Countdown 0x1> [48]
                    """),
                .quiet("1 (64 bytes) ROOT LEAK: <__NSCFTimer 0x1> [64]"),
            ]),
        CyclePattern(
            id: "urlsession.delegate-retained", title: "a URLSession retains its delegate until invalidated",
            ways: [.init(.medium, [.cycle, .node(.regex("NSURLSession")), .appClass])],
            fix: "Call finishTasksAndInvalidate() or invalidateAndCancel() when the session is done.",
            before: "session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)",
            after: "// when done:\nsession.finishTasksAndInvalidate()",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    2 (304 bytes) ROOT CYCLE: <Downloader 0x1> [48]
                       1 (256 bytes) __strong session --> ROOT CYCLE: <__NSURLSessionLocal 0x2> [256]
                          __strong _delegate --> CYCLE BACK TO <Downloader 0x1> [48]
                    """),
                // A session that a cycle merely keeps alive, below it, is not the cycle's pattern.
                .quiet(
                    """
                    3 (352 bytes) ROOT CYCLE: <Downloader 0x1> [48]
                       1 (48 bytes) __strong queue --> ROOT CYCLE: <DownloadQueue 0x2> [48]
                          __strong owner --> CYCLE BACK TO <Downloader 0x1> [48]
                       1 (256 bytes) __strong session --> <__NSURLSessionLocal 0x3> [256]
                    """),
            ]),
        CyclePattern(
            id: "webkit.script-message-handler", title: "a web view's script message handler holds the web view",
            ways: [
                .init(
                    .high,
                    [
                        .cycle,
                        .node(.regex("^(WKUserContentController|WKWebView|WKScriptMessage|WKWebViewConfiguration)")),
                        .appClass,
                    ])
            ],
            fix: "Register a weak proxy as the handler, and removeScriptMessageHandler(forName:) on teardown.",
            before: "controller.add(self, name: \"bridge\")",
            after: "controller.add(WeakScriptHandler(self), name: \"bridge\")",
            swiftLint: "none",
            examples: [
                .raises(
                    """
                    3 (400 bytes) ROOT CYCLE: <BridgeViewController 0x1> [96]
                       2 (304 bytes) __strong webView --> ROOT CYCLE: <WKWebView 0x2> [256]
                          1 (48 bytes) __strong _configuration --> ROOT CYCLE: <WKUserContentController 0x3> [48]
                             __strong handler --> CYCLE BACK TO <BridgeViewController 0x1> [96]
                    """),
                .quiet("1 (256 bytes) ROOT LEAK: <WKWebView 0x1> [256]"),
            ]),
    ]

    /// Cycles seen wholly inside Apple's frameworks, with the OS they were seen on.
    public static let frameworkCycles: [KnownFrameworkCycle] = [
        KnownFrameworkCycle(
            name: "CFNetwork's PAC client", holder: .exact("CFRunLoopSource"), field: nil,
            target: .prefix("std::__shared_ptr_emplace<PAC::PACClient>"), seenOn: "macOS (2026)"),
        KnownFrameworkCycle(
            name: "FinderKit's open and save panel nodes", holder: .exact("FITNode"), field: .exact("_node"),
            target: .exact("TPublishedFoldersNode"), seenOn: "macOS 10.14"),
        KnownFrameworkCycle(
            name: "Network Extension's verdict blocks", holder: .exact("NEFilterSocketFlow"),
            field: .regex("^_(getVerdict|handleVerdict|savedMessageHandlerQueue)$"),
            target: .regex("^(__NSMallocBlock__|NSMutableArray)$"), seenOn: "macOS 15.5"),
        KnownFrameworkCycle(
            name: "SwiftUI's internal dictionaries", holder: .prefix("Swift._DictionaryStorage<SwiftUI."),
            field: nil, target: .prefix("Swift._DictionaryStorage<SwiftUI."), seenOn: "iOS 26"),
    ]
}

/// A leak shape of a `leaks` tree as memhunt names it: the app's or a framework's (and why), the pattern it
/// shows with the lines it rests on, and the other patterns that match too.
public struct ClassifiedLeak: Sendable, Hashable {
    /// Whose the leak is: the app's (a class of the app on it), a framework's (system classes and none of the
    /// app's: ranked below the app's), or not known (only closures, blocks of no named image, untyped nodes).
    public enum Owner: String, Sendable, Hashable {
        case app, framework, unknown
    }

    public var shape: LeakShape
    public var owner: Owner
    /// Why it was classed as a framework's: a known cycle's name and where it was seen, or the rule (the audit
    /// line a report shows beside it).
    public var frameworkWhy: String?
    /// The pattern's place in `CycleCatalog.patterns`: a large report's groups each hold their leak, and a place
    /// takes 9 bytes where a pattern takes 120.
    var patternIndex: Int?
    public var pattern: CyclePattern? { patternIndex.map { CycleCatalog.patterns[$0] } }
    public var confidence: CyclePattern.Confidence?
    public var evidence: [Int]
    /// Other patterns that match, by id.
    public var alsoMatches: [String]
}

extension CycleCatalog {
    /// `shape` named: the patterns that match it (the one that names a framework class first, then by
    /// confidence, then by id), and whether it is the app's or a framework's.
    public static func classify(
        _ shape: LeakShape, process: String?, known: [KnownFrameworkCycle] = frameworkCycles,
        matching: NameMatch.Matching = { $0.matches($1) }
    ) -> ClassifiedLeak {
        let owners = shape.nodes.map { LeakOwner.of($0, process: process) }
        // One node of a cycle whose back reference is cut off shows no reference of the cycle: nothing to match.
        let matchable = !(shape.open && shape.nodes.count < 2)
        let matches = patterns.indices.filter { _ in matchable }.compactMap { index in
            patterns[index].match(shape, owners: owners, matching: matching).map {
                (pattern: patterns[index], index: index, confidence: $0.confidence, lines: $0.lines)
            }
        }.sorted { a, b in
            (a.pattern.general ? 0 : 1, a.confidence, b.pattern.id) > (
                b.pattern.general ? 0 : 1, b.confidence, a.pattern.id
            )
        }
        var why: String?
        var owner = ClassifiedLeak.Owner.app
        if let entry = known.first(where: { $0.matches(shape, matching: matching) }) {
            owner = .framework
            why = "a known framework cycle: \(entry.name), seen on \(entry.seenOn)"
        } else if !owners.contains(.app) {
            let system = Set(zip(shape.nodes, owners).filter { $0.1 == .system }.compactMap(\.0.className))
            owner = system.isEmpty ? .unknown : .framework
            why =
                system.isEmpty
                ? nil : "every class on it is a system framework's: " + system.sorted().joined(separator: ", ")
        }
        let primary = matches.first
        return ClassifiedLeak(
            shape: shape, owner: owner, frameworkWhy: why, patternIndex: primary?.index,
            confidence: primary?.confidence, evidence: primary?.lines ?? shape.lines,
            alsoMatches: matches.dropFirst().map(\.pattern.id))
    }
}

extension CycleCatalog {
    /// Names the shapes of one report as `classify` does, each distinct name against a regular expression or a
    /// part once. A report of thousands of trees has some thousands of classes, and matching every node of every
    /// shape against every pattern's regular expressions was most of its reading.
    public struct Classifier {
        /// Distinct names remembered; past them each is matched on its own.
        static let maxNames = 100_000

        let process: String?
        let known: [KnownFrameworkCycle]
        /// Each matcher met, numbered, and each name's answers by that number: 0 not yet asked, 1 no, 2 yes. A
        /// report's names are some thousands and the catalog's matchers some tens, so this is a few hundred KB.
        private var matchers: [NameMatch: Int] = [:]
        private var names: [String: [UInt8]] = [:]

        public init(process: String?, known: [KnownFrameworkCycle] = frameworkCycles) {
            self.process = process
            self.known = known
        }

        public mutating func classify(_ shape: LeakShape) -> ClassifiedLeak {
            // The memo is taken out of `self` while `classify` runs, since its closure changes it.
            var (matchers, names) = (self.matchers, self.names)
            (self.matchers, self.names) = ([:], [:])
            let leak = CycleCatalog.classify(shape, process: process, known: known) { match, name in
                guard let name else { return false }
                switch match {
                case .exact, .prefix: return match.matches(name)
                case .contains, .regex:
                    let number = matchers[match] ?? matchers.count
                    if number == matchers.count { matchers[match] = number }
                    if let row = names[name], number < row.count, row[number] != 0 { return row[number] == 2 }
                    let answer = match.matches(name)
                    guard names.count < Self.maxNames || names[name] != nil else { return answer }
                    var row = names.removeValue(forKey: name) ?? []
                    if row.count <= number { row += Array(repeating: 0, count: number + 1 - row.count) }
                    row[number] = answer ? 2 : 1
                    names[name] = row
                    return answer
                }
            }
            (self.matchers, self.names) = (matchers, names)
            return leak
        }
    }
}
